/**
 * What the HTTP recorder reads out of a body: JSON-RPC messages, parsed
 * without recursion (a 100,000-deep array is a value like any other, to be
 * forwarded and recorded as text), and the era the first answer decides.
 *
 * @module
 */
import type { Era } from "../cassette/format.ts";
import type { Json, JsonObject } from "../jsonrpc/messages.ts";
import { isObject } from "../util/helpers.ts";
import { offersModernEra, PROTOCOL_VERSION_META } from "../jsonrpc/messages.ts";

/** A JSON-RPC message, or a batch of them: only one level is looked at, whatever the depth. */
export function isJsonRpc(value: unknown): boolean {
  const one = (item: unknown) => isObject(item) && item.jsonrpc === "2.0";
  if (Array.isArray(value)) return value.length > 0 && value.every(one);
  return one(value);
}

/** The messages of a message or batch. */
export function messagesOf(value: Json): JsonObject[] {
  return (Array.isArray(value) ? value : [value]).filter(isObject);
}

/** The text as JSON; undefined when it is not JSON, or too deep for this runtime's parser. */
export function parseJson(text: string): Json | undefined {
  if (text.trim() === "") return undefined;
  try {
    return JSON.parse(text) as Json;
  } catch {
    return undefined;
  }
}

/**
 * The era (and protocol version) an answer to `request` decides, when it is
 * a result: `initialize` answered → legacy; `server/discover` answered with
 * a 2026-07-28 version, or a request of that era answered → modern.
 */
export function eraOf(
  answer: JsonObject,
  request: JsonObject,
): { era: Era; protocolVersion?: string } | undefined {
  if (!("result" in answer)) return undefined;
  const result = isObject(answer.result) ? answer.result : {};
  const params = isObject(request.params) ? request.params : {};
  const meta = isObject(params._meta) ? params._meta : {};
  const modernVersion = typeof meta[PROTOCOL_VERSION_META] === "string"
    ? meta[PROTOCOL_VERSION_META] as string
    : undefined;
  if (request.method === "initialize") {
    const version = typeof result.protocolVersion === "string" ? result.protocolVersion : undefined;
    return { era: "legacy", ...(version ? { protocolVersion: version } : {}) };
  }
  // A probe answered without a 2026-07-28 version decides nothing: the client falls back to initialize.
  if (request.method === "server/discover" && !offersModernEra(answer.result)) return undefined;
  if (request.method === "server/discover" || modernVersion) {
    return { era: "modern", ...(modernVersion ? { protocolVersion: modernVersion } : {}) };
  }
  return { era: "legacy" };
}
