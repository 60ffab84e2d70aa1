/**
 * Which object keys carry credentials, and which carry protocol state that
 * must never be touched.
 *
 * THE KEY RULE. A key is split into lower-case words at `-`, `_`, `.`,
 * spaces and camelCase humps (`X-API-Key` → x·api·key, `clientSecret` →
 * client·secret, `access_token` → access·token). The key is credential-bearing
 * when its LAST word (or last two, for `api key` / `private key` / `access key`)
 * is a credential word: `token`, `secret(s)`, `password(s)`, `passwd`,
 * `passphrase`, `apikey(s)`, `api key(s)`, `authorization`, `credential(s)`,
 * `cookie`, `private key`, `secret key`, `access key` — optionally followed by
 * one value-ish suffix (`value`, `hash`, `b64`, `base64`, `raw`).
 *
 * Why "last word": the word the key ends in names what the value IS.
 * `maxTokens`, `totalTokens`, `inputTokens` end in the plural `tokens` (a
 * count), `tokenCount` / `tokenLimit` / `tokenType` end in `count` / `limit` /
 * `type`, so none of them match, while `access_token`, `refreshToken`,
 * `clientSecret` and `X-API-Key` do. Only the singular `token` counts,
 * because `tokens` is overwhelmingly a count in LLM protocols.
 *
 * Exceptions (never credential, whatever the words say): a `token` preceded
 * by `progress`, `page`, `next page`, `continuation` or `pagination` is an
 * opaque protocol or paging handle (`progressToken`, `nextPageToken`).
 *
 * PROTOCOL KEYS ({@linkcode isProtocolKey}) are stronger still: the whole
 * value under them is left verbatim — no key rule, user rule or detector
 * applies — because replay matching and the MCP schema depend on them.
 *
 * @module
 */
import { memoize } from "../util/memo.ts";

const CREDENTIAL_WORDS: ReadonlySet<string> = new Set([
  "token",
  "secret",
  "secrets",
  "password",
  "passwords",
  "passwd",
  "passphrase",
  "apikey",
  "apikeys",
  "authorization",
  "credential",
  "credentials",
  "cookie",
  "privatekey",
  "secretkey",
  "accesskey",
]);

/** Two-word endings folded into one word before the check (`api key` → `apikey`). */
const JOINED_ENDINGS: ReadonlySet<string> = new Set(["api", "private", "secret", "access"]);

const VALUE_SUFFIXES: ReadonlySet<string> = new Set(["value", "hash", "b64", "base64", "raw"]);

/** Words before `token` that make it a paging or progress handle, not a secret. */
const HANDLE_QUALIFIERS: ReadonlySet<string> = new Set([
  "progress",
  "page",
  "continuation",
  "pagination",
]);

/**
 * Keys whose values are protocol state, compared folded (lower case, `-`
 * and `_` removed). Values under these keys are never redacted.
 */
const PROTOCOL_KEYS: ReadonlySet<string> = new Set([
  "jsonrpc",
  "progresstoken",
  "cursor",
  "nextcursor",
  "requeststate",
  "protocolversion",
  "maxtokens",
  "inputtokens",
  "outputtokens",
  "totaltokens",
  "sessionid",
  "mcpsessionid",
  "mcpprotocolversion",
  "lasteventid",
  "mimetype",
]);

/**
 * A pattern, without flags, found in every key {@linkcode isCredentialKey}
 * accepts: a credential word in any case, a two-word one (`api key`) with
 * any separators between its words. The last word of such a key, or the
 * last two joined, is a credential word, or the key is one word ending in
 * one, and its words are its own letters split and lower-cased. The
 * redactor tests whole lines of JSON with it (./redactor.ts).
 */
export const CREDENTIAL_KEY_PATTERN: string = [...CREDENTIAL_WORDS].map(credentialWordPattern).join(
  "|",
);

function credentialWordPattern(word: string): string {
  for (const first of JOINED_ENDINGS) {
    const rest = word.slice(first.length);
    if (word.startsWith(first) && (rest === "key" || rest === "keys")) {
      return `${anyCase(first)}[\\s\\-_.]*${anyCase(rest)}`;
    }
  }
  return anyCase(word);
}

/** A word as a pattern that matches it in any case (an `i` flag would apply to all a pattern is joined with). */
function anyCase(word: string): string {
  return word.replace(/[a-z]/g, (letter) => `[${letter}${letter.toUpperCase()}]`);
}

/** Splits a key into lower-case words. */
export function keyWords(key: string): string[] {
  return key
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2")
    .toLowerCase()
    .split(/[\s\-_.]+/)
    .filter((word) => word !== "");
}

/** A key lower-cased with `-`, `_`, `.` and spaces removed. */
export function foldKey(key: string): string {
  return key.toLowerCase().replace(/[\s\-_.]+/g, "");
}

/**
 * True for keys whose value is protocol state: never redacted by any rule.
 * Memoized, as is {@linkcode isCredentialKey}: the redactor asks about every
 * key of every frame, and frames repeat the same few keys.
 */
export const isProtocolKey: (key: string) => boolean = memoize(
  (key) => PROTOCOL_KEYS.has(foldKey(key)),
  4096,
);

/** True when the value under `key` is, by the key rule above, a credential. */
export const isCredentialKey: (key: string) => boolean = memoize(credentialKey, 4096);

function credentialKey(key: string): boolean {
  if (isProtocolKey(key)) return false;
  const words = keyWords(key);
  if (words.length > 1 && VALUE_SUFFIXES.has(words[words.length - 1])) words.pop();
  if (words.length === 0) return false;
  let last = words[words.length - 1];
  let before = words.length - 2;
  if (before >= 0 && JOINED_ENDINGS.has(words[before]) && (last === "key" || last === "keys")) {
    last = words[before] + last;
    before--;
  }
  // A key written as one lower-case word (`accesstoken`, `clientsecret`) is judged by its tail.
  if (!CREDENTIAL_WORDS.has(last)) {
    if (last.endsWith("token")) return !isHandleWord(last.slice(0, -"token".length));
    return [...CREDENTIAL_WORDS].some((word) => last.endsWith(word));
  }
  if (last === "token" && before >= 0) {
    const qualifier = words[before];
    if (HANDLE_QUALIFIERS.has(qualifier)) return false;
  }
  return true;
}

function isHandleWord(prefix: string): boolean {
  return [...HANDLE_QUALIFIERS].some((word) => prefix.endsWith(word));
}

/** Header names that always carry credentials, lower case. */
const CREDENTIAL_HEADERS: ReadonlySet<string> = new Set([
  "authorization",
  "proxy-authorization",
  "cookie",
  "set-cookie",
  "x-api-key",
  "api-key",
  "x-auth-token",
  "x-access-token",
  "x-csrf-token",
]);

/** True for an HTTP header whose value is a credential. */
export function isCredentialHeader(name: string): boolean {
  return CREDENTIAL_HEADERS.has(name.toLowerCase()) || isCredentialKey(name);
}

/** Headers that are protocol or transport state: never rewritten. */
export function isProtocolHeader(name: string): boolean {
  const lower = name.toLowerCase();
  return lower.startsWith("mcp-") || lower === "last-event-id" || lower === "content-type" ||
    lower === "content-length" || lower === "accept" || lower === "accept-encoding" ||
    lower === "content-encoding" || lower === "transfer-encoding" || lower === "connection" ||
    lower === "date" || lower === "cache-control";
}
