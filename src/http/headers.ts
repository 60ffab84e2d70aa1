/**
 * Header handling shared by the HTTP recorder, the replay server and the
 * client transport: which headers a proxy must not forward, which carry
 * credentials, and the media-type checks of Streamable HTTP.
 *
 * @module
 */
import { isCredentialHeader } from "../redact/keys.ts";
import { memoize } from "../util/memo.ts";

export { isCredentialHeader };

/**
 * The request headers the Streamable HTTP replay reads, each read once
 * (null when absent; repeats joined with `, `, as `Headers.get` does).
 */
export interface RequestHeads {
  host: string | null;
  origin: string | null;
  accept: string | null;
  contentType: string | null;
  contentLength: string | null;
  sessionId: string | null;
  protocolVersion: string | null;
}

/**
 * The {@linkcode RequestHeads} of `request`: from `raw` (the server's list,
 * names as sent, in any case) in one pass when given, else from `request.headers`.
 * Under Deno each `headers.get` is a call into the runtime, and the replay
 * asked for seven a request (a tenth of its busy time with what they cost).
 */
export function requestHeads(
  request: Request,
  raw?: readonly (readonly [string, string])[],
): RequestHeads {
  if (raw === undefined) {
    const headers = request.headers;
    return {
      host: headers.get("host"),
      origin: headers.get("origin"),
      accept: headers.get("accept"),
      contentType: headers.get("content-type"),
      contentLength: headers.get("content-length"),
      sessionId: headers.get("mcp-session-id"),
      protocolVersion: headers.get("mcp-protocol-version"),
    };
  }
  const heads: RequestHeads = {
    host: null,
    origin: null,
    accept: null,
    contentType: null,
    contentLength: null,
    sessionId: null,
    protocolVersion: null,
  };
  for (let i = 0; i < raw.length; i++) {
    const name = raw[i][0];
    // Names come as the client wrote them: the usual spellings are looked up
    // as they are, any other only lower-cased when its length could match.
    const field = HEAD_FIELDS[name] ??
      (HEAD_LENGTHS.has(name.length) ? HEAD_FIELDS[name.toLowerCase()] : undefined);
    if (field === undefined) continue;
    const seen = heads[field];
    heads[field] = seen === null ? raw[i][1] : `${seen}, ${raw[i][1]}`;
  }
  return heads;
}

const HEAD_NAMES: [string, keyof RequestHeads][] = [
  ["host", "host"],
  ["origin", "origin"],
  ["accept", "accept"],
  ["content-type", "contentType"],
  ["content-length", "contentLength"],
  ["mcp-session-id", "sessionId"],
  ["mcp-protocol-version", "protocolVersion"],
];

/** Header name (lower-case, Title-Case, and MCP- as the spec writes it) → its field. */
const HEAD_FIELDS: Record<string, keyof RequestHeads | undefined> = Object.create(null);
for (const [name, field] of HEAD_NAMES) {
  const titled = name.replace(/(^|-)([a-z])/g, (_, dash, c) => dash + c.toUpperCase());
  HEAD_FIELDS[name] = field;
  HEAD_FIELDS[titled] = field;
  HEAD_FIELDS[titled.replace(/^Mcp-/, "MCP-")] = field;
}
const HEAD_LENGTHS = new Set(HEAD_NAMES.map(([name]) => name.length));

/** Hop-by-hop headers (RFC 9110 §7.6.1) and ones the proxy recomputes. */
const HOP_BY_HOP = new Set([
  "connection",
  "keep-alive",
  "proxy-connection",
  "transfer-encoding",
  "te",
  "trailer",
  "upgrade",
  "host",
  "content-length",
  "accept-encoding",
]);

/**
 * What the header helpers read of a Headers object: the byte-level recorder
 * passes its own view of a head instead (same order, same joined values),
 * without the cost of building one.
 */
export interface HeaderSource {
  get(name: string): string | null;
  /** Each field, names in lower case and in order, repeated values joined. */
  forEach(callback: (value: string, name: string) => void): void;
}

/** Headers as a plain object with lower-case names (repeated values joined with `, `). */
export function headerObject(headers: HeaderSource): Record<string, string> {
  const out: Record<string, string> = {};
  headers.forEach((value, name) => {
    out[name] = name in out ? `${out[name]}, ${value}` : value;
  });
  return out;
}

/** What a header scrubber returns. */
export interface ScrubbedHeaders {
  headers: Record<string, string>;
  credentials: string[];
}

/** Something that can scrub headers beyond the built-in credential list (the redactor). */
export interface HeaderRedactor {
  headers?(h: Record<string, string>): ScrubbedHeaders;
  url?(pathAndQuery: string): string;
}

/**
 * Removes credential-bearing values and names them instead; then lets the
 * redactor (when it offers `headers()`) scrub the rest.
 */
export function scrubHeaders(
  headers: HeaderSource,
  redactor?: HeaderRedactor,
): ScrubbedHeaders {
  const kept: Record<string, string> = {};
  const credentials: string[] = [];
  for (const [name, value] of Object.entries(headerObject(headers))) {
    if (isCredentialHeader(name)) credentials.push(name);
    else kept[name] = value;
  }
  if (redactor?.headers) {
    const more = redactor.headers(kept);
    return {
      headers: more.headers,
      credentials: [...new Set([...credentials, ...more.credentials])],
    };
  }
  return { headers: kept, credentials };
}

/** Copies the headers a proxy forwards (drops hop-by-hop ones). */
export function forwardableHeaders(headers: Headers, drop: readonly string[] = []): Headers {
  const out = new Headers();
  headers.forEach((value, name) => {
    if (HOP_BY_HOP.has(name) || drop.includes(name) || name.startsWith("proxy-")) return;
    out.append(name, value);
  });
  return out;
}

const parseMediaType = memoize((value) => value.split(";")[0].trim().toLowerCase());

/** The media type of a Content-Type value, lower-case, without parameters. */
export function mediaType(value: string | null | undefined): string {
  return parseMediaType(value ?? "");
}

/** The media ranges an Accept value lists, lower-case, without parameters. */
const acceptedRanges = memoize((accept) =>
  new Set(accept.split(",").map((part) => part.split(";")[0].trim().toLowerCase()))
);

/** True when `accept` lists `type` (or a wildcard that covers it). */
export function accepts(accept: string | null, type: string): boolean {
  if (!accept) return false;
  const ranges = acceptedRanges(accept);
  return ranges.has(type) || ranges.has("*/*") || ranges.has(`${type.split("/")[0]}/*`);
}

/**
 * Decodes a modern-era header value: `=?base64?…?=` carries a value that is
 * not header-safe; anything else is literal.
 */
export function decodeHeaderValue(value: string): string | undefined {
  const match = /^=\?base64\?(.*)\?=$/i.exec(value.trim());
  if (!match) return value.trim();
  try {
    const binary = atob(match[1]);
    const bytes = Uint8Array.from(binary, (char) => char.charCodeAt(0));
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

/** Encodes a value for a modern-era header, base64-wrapping what is not plain visible ASCII. */
export function encodeHeaderValue(value: string): string {
  if (/^[\x20-\x7e]*$/.test(value) && value.trim() === value) return value;
  const bytes = new TextEncoder().encode(value);
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return `=?base64?${btoa(binary)}?=`;
}
