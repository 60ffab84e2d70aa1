/**
 * Where a command's server is: a command line to start (stdio) or a URL
 * (HTTP, through the registered transport factory).
 *
 * @module
 */
import { UsageError } from "../errors.ts";
import { transportFactory } from "./registry.ts";
import type { TransportFactoryOptions } from "./registry.ts";
import { StdioClientTransport } from "./stdio.ts";
import type { ClientTransport } from "./transport.ts";

/** A server to connect to. */
export type ServerTarget =
  | { kind: "stdio"; command: string[] }
  | { kind: "http"; url: string; options?: TransportFactoryOptions };

/**
 * Checks that `target` can be opened, before any work starts: for `http`, a
 * factory must be registered. `commandName` goes into the message.
 */
export function assertTargetAvailable(target: ServerTarget, commandName: string): void {
  if (target.kind === "http" && !transportFactory("http")) {
    throw new UsageError(
      `${commandName} --url needs the HTTP transport, which this build does not have yet`,
    );
  }
}

/** Opens a transport to `target`. */
export function openTransport(target: ServerTarget, commandName = "this command"): ClientTransport {
  if (target.kind === "stdio") return new StdioClientTransport(target.command);
  assertTargetAvailable(target, commandName);
  return transportFactory("http")!(target.url, target.options ?? {});
}

/** Names a target for reports. */
export function describeTarget(target: ServerTarget): string {
  return target.kind === "stdio" ? target.command.join(" ") : target.url;
}
