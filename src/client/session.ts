/**
 * The MCP lifecycle on top of {@linkcode McpConnection}: `initialize`, then
 * `notifications/initialized`, and listing helpers that follow `nextCursor`.
 *
 * @module
 */
import { CassetteError, ServerUnreachableError } from "../errors/errors.ts";
import type { JsonObject } from "../jsonrpc/messages.ts";
import { RECORDER_VERSION } from "../cassette/format.ts";
import type { McpConnection, RequestOptions } from "./connection.ts";
import { RpcError } from "./connection.ts";
import type { StdioClientTransport } from "./stdio.ts";
import { asObject } from "../util/helpers.ts";

/** The protocol revision our client asks for. */
export const CLIENT_PROTOCOL_VERSION = "2025-11-25";

/** Our clientInfo. */
export const CLIENT_INFO = { name: "mcp-cassette", version: RECORDER_VERSION } as const;

/** What the server said in answer to `initialize`. */
export interface ServerHello {
  protocolVersion: string;
  serverInfo: { name: string; version: string; title?: string };
  capabilities: JsonObject;
  instructions?: string;
  /** The whole result, as sent. */
  raw: JsonObject;
}

/** Most pages a list helper follows before it gives up (a server looping on one cursor). */
export const MAX_PAGES = 1000;

function stderrHint(connection: McpConnection): string {
  const tail = (connection.transport as Partial<StdioClientTransport>).stderrTail;
  const last = tail?.filter((line) => line.trim() !== "").at(-1);
  return last ? `; its last stderr line: ${last.trim().slice(0, 200)}` : "";
}

/** Who the client says it is in the handshake (a playbook chooses; default: mcp-cassette). */
export interface HandshakeOptions extends RequestOptions {
  capabilities?: JsonObject;
  clientInfo?: { name: string; version: string; title?: string };
  protocolVersion?: string;
}

/**
 * Runs the opening handshake. A server that cannot start, or goes away or
 * stays silent before answering, raises {@linkcode ServerUnreachableError}.
 */
export async function initialize(
  connection: McpConnection,
  options: HandshakeOptions = {},
): Promise<ServerHello> {
  let result: JsonObject;
  try {
    result = await connection.request("initialize", {
      protocolVersion: options.protocolVersion ?? CLIENT_PROTOCOL_VERSION,
      capabilities: options.capabilities ?? {},
      clientInfo: options.clientInfo ?? { ...CLIENT_INFO },
    }, options);
  } catch (error) {
    if (error instanceof ServerUnreachableError) throw error;
    if (error instanceof RpcError) {
      throw new ServerUnreachableError(
        `${connection.transport.describe} refused initialize: ${error.rpcMessage}`,
      );
    }
    const message = error instanceof CassetteError ? error.message : String(error);
    throw new ServerUnreachableError(
      `${connection.transport.describe} did not complete initialize: ${message}${
        stderrHint(connection)
      }`,
    );
  }
  await connection.notify("notifications/initialized");
  const info = asObject(result.serverInfo);
  return {
    protocolVersion: typeof result.protocolVersion === "string" ? result.protocolVersion : "(none)",
    serverInfo: {
      name: typeof info.name === "string" ? info.name : "(unnamed)",
      version: typeof info.version === "string" ? info.version : "(no version)",
      ...(typeof info.title === "string" ? { title: info.title } : {}),
    },
    capabilities: asObject(result.capabilities),
    ...(typeof result.instructions === "string" ? { instructions: result.instructions } : {}),
    raw: result,
  };
}

/**
 * Calls a paginated list method (`tools/list`, `resources/list`, …) until
 * no `nextCursor` comes back, and returns every item under `key`.
 */
export async function listAll(
  connection: McpConnection,
  method: string,
  key: string,
  options: RequestOptions = {},
): Promise<JsonObject[]> {
  const items: JsonObject[] = [];
  const seen = new Set<string>();
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const result = await connection.request(
      method,
      cursor === undefined ? {} : { cursor },
      options,
    );
    const list = result[key];
    if (Array.isArray(list)) { for (const item of list) items.push(asObject(item)); }
    const next = result.nextCursor;
    if (typeof next !== "string" || next === "" || seen.has(next)) return items;
    seen.add(next);
    cursor = next;
  }
  return items;
}
