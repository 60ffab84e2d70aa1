/**
 * Records a scripted client session against a server with our own client:
 * the handshake, then each call in turn, every frame written to a cassette.
 * (The demo uses this instead of the `record` proxy, so it needs no MCP
 * client of its own.)
 *
 * @module
 */
import type { Entry } from "../cassette/format.ts";
import { McpConnection } from "../client/connection.ts";
import type { ServerRequestHandler } from "../client/connection.ts";
import { initialize } from "../client/session.ts";
import { StdioClientTransport } from "../client/stdio.ts";
import { CassetteError } from "../errors/errors.ts";
import type { Json, JsonObject } from "../jsonrpc/messages.ts";
import { headerFor, writeCassette } from "../verify/update.ts";

/** One scripted request. */
export interface ScriptedCall {
  method: string;
  params?: JsonObject;
}

/** Shorthand for a `tools/call`. */
export function toolCall(name: string, args: JsonObject = {}): ScriptedCall {
  return { method: "tools/call", params: { name, arguments: args } };
}

/** Options for {@linkcode recordScript}. */
export interface RecordScriptOptions {
  timeoutMs?: number;
  /** Answers the server's own requests (sampling, elicitation, roots); default: ping only. */
  onServerRequest?: ServerRequestHandler;
}

/**
 * Starts `command`, runs the handshake and `calls`, and writes the session
 * to `path`. Error answers are recorded like any other answer.
 */
export async function recordScript(
  command: string[],
  calls: readonly ScriptedCall[],
  path: string,
  options: RecordScriptOptions = {},
): Promise<void> {
  const entries: Entry[] = [];
  const start = performance.now();
  const connection = new McpConnection(new StdioClientTransport(command), {
    timeoutMs: options.timeoutMs ?? 10_000,
    onServerRequest: options.onServerRequest,
    observe(dir, frame) {
      const t = Math.round(performance.now() - start);
      if (
        frame !== null && typeof frame === "object" && !Array.isArray(frame) &&
        typeof frame.raw === "string" &&
        Object.keys(frame).length === 1
      ) {
        entries.push({ type: "raw", t, dir, text: frame.raw });
      } else entries.push({ type: "message", t, dir, msg: frame as Json });
    },
  });
  try {
    await initialize(connection);
    for (const call of calls) {
      try {
        await connection.call(call.method, call.params);
      } catch (error) {
        if (!(error instanceof CassetteError)) throw error;
        break; // The server went away: the recording ends here.
      }
    }
  } finally {
    await connection.close();
  }
  await writeCassette(path, headerFor({ kind: "stdio", command }, entries), entries);
}
