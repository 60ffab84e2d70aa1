/**
 * JSON-RPC 2.0 message classification. Only the envelope is inspected:
 * payloads stay semi-opaque, and a frame that is not JSON-RPC is still kept
 * (as `kind: "invalid"`) rather than dropped.
 *
 * @module
 */

/** A JSON-RPC id. */
export type JsonRpcId = string | number;

/** Any JSON value. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** A JSON object. */
export type JsonObject = { [key: string]: Json };

/** A JSON-RPC message as a plain object. */
export interface JsonRpcMessage {
  jsonrpc?: "2.0";
  id?: JsonRpcId | null;
  method?: string;
  params?: JsonObject | Json[];
  result?: Json;
  error?: { code: number; message: string; data?: Json };
}

/** What a frame is. */
export type MessageKind = "request" | "notification" | "response" | "error" | "batch" | "invalid";

/** Error codes used by mcp-cassette and the protocol. */
export const ErrorCode = {
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
  /** Replay found no recorded answer for a request. */
  ReplayMiss: -32001,
  /** Modern era: a header does not agree with the body. */
  HeaderMismatch: -32020,
  /** Modern era: a required client capability is missing. */
  MissingClientCapability: -32021,
  /** Modern era: the protocol version is not supported. */
  UnsupportedProtocolVersion: -32022,
} as const;

/** The `_meta` key a 2026-07-28 request carries its protocol version under. */
export const PROTOCOL_VERSION_META = "io.modelcontextprotocol/protocolVersion";

/** The first revision of the stateless era (`server/discover` instead of `initialize`). */
export const MODERN_PROTOCOL_VERSION = "2026-07-28";

/**
 * True when a `server/discover` result offers a revision of the stateless
 * era (2026-07-28 or later). A server that knows the probe but speaks only
 * earlier revisions offers none, and the client then falls back to
 * `initialize`: the session is of the legacy era.
 *
 * @example
 * ```ts
 * offersModernEra({ supportedVersions: ["2026-07-28"] }); // true
 * offersModernEra({ supportedVersions: ["2025-11-25", "2025-06-18"] }); // false
 * ```
 */
export function offersModernEra(result: unknown): boolean {
  const versions = result !== null && typeof result === "object"
    ? (result as { supportedVersions?: unknown }).supportedVersions
    : undefined;
  return Array.isArray(versions) &&
    versions.some((version) =>
      typeof version === "string" && /^\d{4}-\d{2}-\d{2}$/.test(version) &&
      version >= MODERN_PROTOCOL_VERSION
    );
}

/**
 * The most messages one JSON-RPC batch may hold. The recorder refuses a
 * larger batch whole, with a single error (it forwards nothing it cannot
 * forward as sent); the replay answers the first MAX_BATCH_SIZE members and
 * refuses the rest with one error. Answering each of 10,000 messages cost
 * 2.6 MB of errors a batch and held the memory of all of them at once.
 */
export const MAX_BATCH_SIZE = 1000;

/** The error a batch over {@linkcode MAX_BATCH_SIZE} gets, in place of any of its answers. */
export function batchTooLarge(size: number): JsonRpcMessage {
  return errorResponse(
    null,
    ErrorCode.InvalidRequest,
    `Batch of ${size} messages refused: at most ${MAX_BATCH_SIZE} per batch`,
  );
}

function isId(value: unknown): value is JsonRpcId {
  return typeof value === "string" || typeof value === "number";
}

/** Classifies a parsed JSON value by its JSON-RPC envelope. */
export function classify(value: unknown): MessageKind {
  if (Array.isArray(value)) return value.length > 0 ? "batch" : "invalid";
  if (value === null || typeof value !== "object") return "invalid";
  const message = value as Record<string, unknown>;
  if (typeof message.method === "string") {
    return "id" in message && isId(message.id) ? "request" : "notification";
  }
  if ("result" in message && "id" in message) return "response";
  if ("error" in message && typeof message.error === "object" && message.error !== null) {
    return "error";
  }
  return "invalid";
}

/** True for a request (has a method and an id). */
export function isRequest(
  message: JsonRpcMessage,
): message is JsonRpcMessage & { id: JsonRpcId; method: string } {
  return classify(message) === "request";
}

/** True for a notification (has a method and no id). */
export function isNotification(
  message: JsonRpcMessage,
): message is JsonRpcMessage & { method: string } {
  return classify(message) === "notification";
}

/** True for a result or an error response. */
export function isResponse(message: JsonRpcMessage): boolean {
  const kind = classify(message);
  return kind === "response" || kind === "error";
}

/** Builds an error response. */
export function errorResponse(
  id: JsonRpcId | null,
  code: number,
  message: string,
  data?: Json,
): JsonRpcMessage {
  const error: JsonRpcMessage["error"] = { code, message };
  if (data !== undefined) error.data = data;
  return { jsonrpc: "2.0", id, error };
}

/** A JSON key that compares ids across number and string spellings. */
export function idKey(id: JsonRpcId | null | undefined): string {
  return typeof id === "number" ? `n:${id}` : `s:${id}`;
}
