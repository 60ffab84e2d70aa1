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
import type { Json, JsonObject, JsonRpcMessage } from "../jsonrpc/messages.ts";
import { setOwn, stableStringify } from "../json/values.ts";
import { withoutIgnored } from "./ignore_paths.ts";
import type { IgnorePath } from "./ignore_paths.ts";
import { isObject } from "../util/helpers.ts";
import { fnv1a32 } from "../util/fnv.ts";

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
  /**
   * {@linkcode keyHash} of `key`, where the key is not held as a string but
   * rebuilt when read (a recording left in the cassette file).
   */
  readonly hash?: number;
}

/**
 * The hash an answer book indexes a key by. It confirms a hit by comparing
 * the keys themselves: equal hashes do not make equal keys.
 */
export function keyHash(key: string): number {
  return fnv1a32(key);
}

/** The key's hash: kept on the key, or computed from its text. */
export function hashOf(key: RequestKey): number {
  return key.hash ?? keyHash(key.key);
}

/** Options that widen what counts as volatile. */
export interface FingerprintOptions {
  /** More keys to drop wherever they occur in params. */
  ignoreKeys?: readonly string[];
  /** Paths into params removed before keying (see ./ignore_paths.ts). */
  ignorePaths?: readonly IgnorePath[];
}

/** Removes volatile keys at every depth. */
export function stripVolatile(
  value: Json | undefined,
  keys: ReadonlySet<string> = VOLATILE_KEYS,
): Json {
  if (value === undefined) return null;
  if (Array.isArray(value)) return value.map((item) => stripVolatile(item, keys));
  if (value === null || typeof value !== "object") return value;
  const out: JsonObject = {};
  for (const [key, item] of Object.entries(value)) {
    if (!keys.has(key)) setOwn(out, key, stripVolatile(item, keys));
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
  const keys = options.ignoreKeys?.length
    ? new Set([...VOLATILE_KEYS, ...options.ignoreKeys])
    : VOLATILE_KEYS;
  // Absent params and {} mean the same request (clients differ in which they send).
  const params = stripVolatile((message.params ?? {}) as Json, keys);
  if (params === null || typeof params !== "object" || Array.isArray(params)) return params;
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(params)) {
    if (!VOLATILE_TOP_KEYS.has(key)) setOwn(out, key, value);
  }
  return out;
}

/** Top-level keys of `tools/call` params left out of the key's extra part. */
const CALL_TOP_KEYS: ReadonlySet<string> = new Set(["name", "arguments", ...VOLATILE_TOP_KEYS]);

/**
 * Params nested deeper than this are keyed by their text as sent: the
 * normalising walk recurses, and a frame can be nested far deeper than the
 * call stack allows (the recorder keeps such frames whole).
 */
export const MAX_KEY_DEPTH = 256;

/** Thrown by {@linkcode keyText} past {@linkcode MAX_KEY_DEPTH}. */
const tooDeep = new RangeError("params nested too deeply to normalise");

/**
 * `stableStringify(stripVolatile(value, drop))` in one pass, without the
 * stripped copy (this runs on every replayed request); keys in `skipTop`
 * are left out at the top level only.
 */
function keyText(
  value: Json | undefined,
  drop: ReadonlySet<string>,
  skipTop?: ReadonlySet<string>,
  depth = 0,
): string {
  if (value === undefined || value === null) return "null";
  if (typeof value !== "object") return JSON.stringify(value);
  if (depth >= MAX_KEY_DEPTH) throw tooDeep;
  // Loops rather than map/filter callbacks: replay keys each request once,
  // mostly before V8 has optimised this. Still joined, not appended piece by
  // piece: join gives flat strings, and a key built with += kept a tree of
  // pieces (a 50 MB cassette's engine: 88 -> 90 MB).
  if (Array.isArray(value)) {
    const items = new Array<string>(value.length);
    for (let i = 0; i < value.length; i++) items[i] = keyText(value[i], drop, undefined, depth + 1);
    return `[${items.join(",")}]`;
  }
  const keys = Object.keys(value);
  if (keys.length > 1) keys.sort();
  const members: string[] = [];
  for (const key of keys) {
    if (!drop.has(key) && !skipTop?.has(key)) {
      members.push(`${JSON.stringify(key)}:${keyText(value[key], drop, undefined, depth + 1)}`);
    }
  }
  return `{${members.join(",")}}`;
}

/**
 * The pieces as one flat string. A key built with `+` or a template is a
 * tree of its pieces, and a Map lookup flattens it into a copy while the
 * tree stays: a 35.7 MB cassette's 100,000 keys held 23.6 MB that way, 7.6 MB
 * flat.
 */
function flat(pieces: string[]): string {
  return pieces.join("");
}

/** True when `params` has a top-level key the `tools/call` key does not already cover. */
function hasExtraCallKeys(params: JsonObject, drop: ReadonlySet<string>): boolean {
  for (const key in params) if (!CALL_TOP_KEYS.has(key) && !drop.has(key)) return true;
  return false;
}

/**
 * A key whose normalised params are built when first read (only a miss
 * diagnosis reads them). A class, not an object literal with a getter: the
 * literal's closure cost a 50 MB cassette's engine 17 MB more (1.83x -> 2.16x
 * its size).
 */
class LazyKey implements RequestKey {
  key = "";
  #params: Json | undefined;

  constructor(
    readonly method: string,
    readonly name: string | undefined,
    private readonly source: HeldMessage,
    private readonly options: FingerprintOptions,
  ) {}

  get params(): Json {
    if (this.#params !== undefined) return this.#params;
    const paths = this.options.ignorePaths;
    const message = paths?.length ? withoutIgnored(this.source.msg, paths) : this.source.msg;
    return this.#params = normaliseParams(message, this.options);
  }
}

/**
 * Where a key's message can be had again: the message itself, or a frame
 * that reads it back from the cassette file (../cassette/frame_store.ts).
 */
export interface HeldMessage {
  readonly msg: JsonRpcMessage;
}

/**
 * Computes the fingerprint of a request or notification. `params` (only
 * read to explain a miss) is built when first read. Params nested deeper
 * than {@linkcode MAX_KEY_DEPTH} are keyed by their exact text, volatile
 * parts and all.
 */
export function requestKey(
  message: JsonRpcMessage,
  options: FingerprintOptions = {},
  /** Where the key may read the message again, rather than holding it. */
  held: HeldMessage = { msg: message },
): RequestKey {
  if (options.ignorePaths?.length) message = withoutIgnored(message, options.ignorePaths);
  try {
    return normalKey(message, options, held);
  } catch (error) {
    if (error !== tooDeep) throw error;
    const method = message.method ?? "";
    const name = targetName(message);
    return {
      method,
      name,
      params: null,
      key: `${method} ${name ?? ""} =${JSON.stringify(message.params ?? {})}`,
    };
  }
}

function normalKey(
  message: JsonRpcMessage,
  options: FingerprintOptions,
  held: HeldMessage,
): RequestKey {
  const method = message.method ?? "";
  const name = targetName(message);
  if (LIFECYCLE_METHODS.has(method)) return { method, name, params: null, key: method };
  const raw = (message.params ?? {}) as Json;
  const lazy = new LazyKey(method, name, held, options);
  const drop = options.ignoreKeys?.length
    ? new Set([...VOLATILE_KEYS, ...options.ignoreKeys])
    : VOLATILE_KEYS;
  if (method === "tools/call" && isObject(raw)) {
    const args = drop.has("arguments") ? undefined : raw.arguments;
    const extra = hasExtraCallKeys(raw, drop) ? ` ${keyText(raw, drop, CALL_TOP_KEYS)}` : "";
    lazy.key = flat([
      method,
      " ",
      name ?? "",
      " ",
      args === undefined || args === null ? "{}" : keyText(args, drop),
      extra,
    ]);
    return lazy;
  }
  if (method === "tools/call") {
    // Params that are not an object: the general form, as before.
    const normal = normaliseParams(message, options);
    const rest = { ...(normal as JsonObject) };
    delete rest.name;
    delete rest.arguments;
    const extra = Object.keys(rest).length > 0 ? ` ${stableStringify(rest)}` : "";
    lazy.key = flat([method, " ", name ?? "", " {}", extra]);
    return lazy;
  }
  lazy.key = flat([method, " ", keyText(raw, drop, isObject(raw) ? VOLATILE_TOP_KEYS : undefined)]);
  return lazy;
}
