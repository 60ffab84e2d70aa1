/**
 * What a miss says when the client and the cassette speak different protocol
 * eras: a session-based client (`initialize`) against a recording of the
 * stateless 2026-07-28 era, or the reverse.
 *
 * @module
 */
import type { Era } from "../cassette/format.ts";
import type { JsonObject, JsonRpcMessage } from "../jsonrpc/messages.ts";
import { PROTOCOL_VERSION_META } from "../jsonrpc/messages.ts";

/** The era a live request speaks, when it shows one. */
function liveEra(message: JsonRpcMessage): Era | undefined {
  if (message.method === "initialize") return "legacy";
  if (message.method === "server/discover") return "modern";
  const params = message.params as JsonObject | undefined;
  const meta = params && typeof params === "object" && !Array.isArray(params)
    ? params._meta as JsonObject | undefined
    : undefined;
  return meta && typeof meta === "object" && PROTOCOL_VERSION_META in meta ? "modern" : undefined;
}

const NAMES: Record<Era, string> = {
  legacy: "the session-based era (initialize, up to 2025-11-25)",
  modern: "the stateless 2026-07-28 era (server/discover)",
};

/** `server/discover` sent to a legacy recording that never saw one. */
export function isEraProbe(
  source: { readonly era: Era; recordsMethod(method: string): boolean },
  method: string,
): boolean {
  return method === "server/discover" && source.era === "legacy" && !source.recordsMethod(method);
}

/** `"; the cassette was recorded in …, this client speaks …"`, or "" when the eras agree. */
export function eraHint(cassette: Era, message: JsonRpcMessage): string {
  const live = liveEra(message);
  if (live === undefined || live === cassette) return "";
  return `; the cassette was recorded in ${NAMES[cassette]}, and this client speaks ${NAMES[live]}`;
}
