/**
 * Header handling shared by the HTTP recorder, the replay server and the
 * client transport: which headers a proxy must not forward, which carry
 * credentials, and the media-type checks of Streamable HTTP.
 *
 * @module
 */
import { isCredentialHeader } from "../redact/keys.ts";
import { memoize } from "../memo.ts";

export { isCredentialHeader };

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
