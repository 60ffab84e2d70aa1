/**
 * Where a command's server is: a command line to start (stdio) or a URL
 * (Streamable HTTP).
 *
 * @module
 */
import { StreamableHttpClientTransport } from "./http.ts";
import { StdioClientTransport } from "./stdio.ts";
import type { ClientTransport } from "./transport.ts";

/** Options for an HTTP target. */
export interface HttpTargetOptions {
  /** Extra HTTP headers (for `--header` flags, when the command offers them). */
  headers?: Record<string, string>;
}

/** A server to connect to. */
export type ServerTarget =
  | { kind: "stdio"; command: string[] }
  | { kind: "http"; url: string; options?: HttpTargetOptions };

/** Opens a transport to `target`. */
export function openTransport(target: ServerTarget): ClientTransport {
  if (target.kind === "stdio") return new StdioClientTransport(target.command);
  return new StreamableHttpClientTransport(target.url, target.options?.headers);
}

/** Names a target for reports. */
export function describeTarget(target: ServerTarget): string {
  return target.kind === "stdio" ? target.command.join(" ") : target.url;
}
