/**
 * Request fingerprints: the key replay matches a live request against.
 *
 * The JSON-RPC id is never part of a key (the live id goes on the answer),
 * and neither are the parts of a request that change from run to run without
 * changing its meaning: `_meta` (progress tokens, the modern era's envelope),
 * pagination cursors.
 *
 * @module
 */
import type { Json, JsonObject, JsonRpcMessage } from "../jsonrpc.ts";
import { stableStringify } from "../json.ts";

/** Methods matched by name alone: their params only negotiate, they do not select an answer. */
const LIFECYCLE_METHODS: ReadonlySet<string> = new Set([
  "initialize",
  "notifications/initialized",
  "ping",
  "server/discover",
]);

/** Keys removed from params wherever they occur, because they vary per run. */
const VOLATILE_KEYS: ReadonlySet<string> = new Set(["_meta"]);

/** Keys removed from the top level of params. */
const VOLATILE_TOP_KEYS: ReadonlySet<string> = new Set(["cursor", "progressToken"]);

/** The fingerprint of a request or notification. */
export interface RequestKey {
  method: string;
  /** Tool name, prompt name or resource URI, where the method has one. */
  name?: string;
  /** The params with volatile parts removed. */
  params: Json;
  /** The exact key: method plus stably stringified normalised params. */
  key: string;
}

/** Options that widen what counts as volatile. */
export interface FingerprintOptions {
  /** More keys to drop wherever they occur in params. */
  ignoreKeys?: readonly string[];
}

/** Removes volatile keys at every depth. */
export function stripVolatile(value: Json | undefined, keys: ReadonlySet<string> = VOLATILE_KEYS): Json {
  if (value === undefined) return null;
  if (Array.isArray(value)) return value.map((item) => stripVolatile(item, keys));
  if (value === null || typeof value !== "object") return value;
  const out: JsonObject = {};
  for (const [key, item] of Object.entries(value)) {
    if (!keys.has(key)) out[key] = stripVolatile(item, keys);
  }
  return out;
}

/** The name a request targets: the tool, the prompt, or the resource URI. */
export function targetName(message: JsonRpcMessage): string | undefined {
  const params = message.params as JsonObject | undefined;
  if (!params || typeof params !== "object" || Array.isArray(params)) return undefined;
  switch (message.method) {
    case "tools/call":
    case "prompts/get":
      return typeof params.name === "string" ? params.name : undefined;
    case "resources/read":
    case "resources/subscribe":
    case "resources/unsubscribe":
      return typeof params.uri === "string" ? params.uri : undefined;
    default:
      return undefined;
  }
}

/** Normalised params: volatile keys gone, everything else kept. */
export function normaliseParams(message: JsonRpcMessage, options: FingerprintOptions = {}): Json {
  const keys = options.ignoreKeys?.length ? new Set([...VOLATILE_KEYS, ...options.ignoreKeys]) : VOLATILE_KEYS;
  // Absent params and {} mean the same request (clients differ in which they send).
  const params = stripVolatile((message.params ?? {}) as Json, keys);
  if (params === null || typeof params !== "object" || Array.isArray(params)) return params;
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(params)) {
    if (!VOLATILE_TOP_KEYS.has(key)) out[key] = value;
  }
  return out;
}

/** Computes the fingerprint of a request or notification. */
export function requestKey(message: JsonRpcMessage, options: FingerprintOptions = {}): RequestKey {
  const method = message.method ?? "";
  const name = targetName(message);
  if (LIFECYCLE_METHODS.has(method)) return { method, name, params: null, key: method };
  const params = normaliseParams(message, options);
  if (method === "tools/call") {
    const args = (params as JsonObject | null)?.arguments ?? {};
    const rest = { ...(params as JsonObject) };
    delete rest.name;
    delete rest.arguments;
    const extra = Object.keys(rest).length > 0 ? ` ${stableStringify(rest)}` : "";
    return { method, name, params, key: `${method} ${name ?? ""} ${stableStringify(args)}${extra}` };
  }
  return { method, name, params, key: `${method} ${stableStringify(params)}` };
}
