/**
 * A small HTTP/1.1 framing reader for the byte-level recorder
 * (./http_bytes.ts): a buffer over a connection's readable side, a message
 * head (start line and header fields), and a chunked-body decoder that says
 * how many of the bytes it was given belong to the body (the rest is the
 * next message's). It understands what an MCP client and server send;
 * anything else is left to the fetch-based path.
 *
 * @module
 */
import type { HeaderSource } from "../http/headers.ts";

/** A parsed message head. */
export interface Head {
  /** The start line's three parts: method, target, version (or version, status, reason). */
  start: [string, string, string];
  /** The header fields as sent, in order, names as written. */
  fields: [string, string][];
  /** The head's length in bytes, blank line included. */
  length: number;
}

const EMPTY = new Uint8Array(0);

/** A read buffer over one connection's readable side. */
export class ByteReader {
  #reader: ReadableStreamDefaultReader<Uint8Array>;
  #buffer: Uint8Array = EMPTY;
  /** The buffer's array is one this reader made (a chunk read may share its array with others). */
  #owned = false;
  #reading: Promise<boolean> | undefined;
  /** True once the peer has ended its side. */
  ended = false;

  constructor(readable: ReadableStream<Uint8Array>) {
    this.#reader = readable.getReader();
  }

  /** What is buffered and not yet taken. */
  get buffered(): Uint8Array {
    return this.#buffer;
  }

  /**
   * Reads one more chunk onto the buffer; false at the end (or a failure).
   * One read at a time: a caller that watches for the end (the client
   * leaving mid-exchange) and one that needs the bytes share it.
   */
  fill(): Promise<boolean> {
    if (this.#reading) return this.#reading;
    if (this.ended) return Promise.resolve(false);
    this.#reading = this.#reader.read().then(({ done, value }) => {
      this.#reading = undefined;
      if (done) {
        this.ended = true;
        return false;
      }
      this.#append(value);
      return true;
    }, () => {
      this.#reading = undefined;
      this.ended = true;
      return false;
    });
    return this.#reading;
  }

  /**
   * Adds a chunk read. A body of many chunks grows one array of our own,
   * doubled when full (rather than copied whole at every chunk); what was
   * taken before stays as it was, since only the space past the end is written.
   */
  #append(value: Uint8Array): void {
    const before = this.#buffer;
    if (before.length === 0) {
      this.#buffer = value;
      this.#owned = false;
      return;
    }
    const end = before.byteOffset + before.length;
    const length = before.length + value.length;
    if (this.#owned && before.buffer.byteLength - end >= value.length) {
      new Uint8Array(before.buffer, end, value.length).set(value);
      this.#buffer = new Uint8Array(before.buffer, before.byteOffset, length);
      return;
    }
    const grown = new Uint8Array(Math.max(before.length * 2, length, 16 * 1024));
    grown.set(before, 0);
    grown.set(value, before.length);
    this.#buffer = grown.subarray(0, length);
    this.#owned = true;
  }

  /** Removes and returns the first `n` buffered bytes. */
  take(n: number): Uint8Array {
    const taken = this.#buffer.subarray(0, n);
    this.#buffer = n >= this.#buffer.length ? EMPTY : this.#buffer.subarray(n);
    return taken;
  }

  /** Reads until `n` bytes are buffered; false when the peer ended first. */
  async want(n: number): Promise<boolean> {
    while (this.#buffer.length < n) {
      if (!await this.fill()) return false;
    }
    return true;
  }

  /**
   * Reads until a whole head is buffered (not taken). Undefined when the
   * peer ended first; "too-large" past `maxBytes`; "bad" for what is not an
   * HTTP/1.x head.
   */
  async head(maxBytes: number): Promise<Head | undefined | "too-large" | "bad"> {
    let searched = 0;
    while (true) {
      const end = indexOfBlankLine(this.#buffer, searched);
      if (end >= 0) return parseHead(this.#buffer.subarray(0, end + 4));
      if (this.#buffer.length > maxBytes) return "too-large";
      searched = Math.max(0, this.#buffer.length - 3);
      if (!await this.fill()) return undefined;
    }
  }

  /** Gives up the connection's readable side. */
  cancel(): void {
    this.#reader.cancel().catch(() => {});
  }
}

function indexOfBlankLine(bytes: Uint8Array, from: number): number {
  for (
    let i = bytes.indexOf(13, from);
    i >= 0 && i + 3 < bytes.length;
    i = bytes.indexOf(13, i + 1)
  ) {
    if (bytes[i + 1] === 10 && bytes[i + 2] === 13 && bytes[i + 3] === 10) return i;
  }
  return -1;
}

const WINDOWS_1252 = new TextDecoder("latin1");
/** Any character past ASCII (a control character is ASCII too, and kept). */
const NOT_ASCII = /[\u0080-\uffff]/;

/** Bytes as Latin-1 text: a header byte is one character, as the Fetch API's ByteString has it. */
export function latin1(bytes: Uint8Array): string {
  // The decoder ("latin1" is windows-1252 to it) is exact for ASCII, what
  // heads nearly always are; anything else is mapped a byte at a time.
  const text = WINDOWS_1252.decode(bytes);
  if (!NOT_ASCII.test(text)) return text;
  let exact = "";
  for (let i = 0; i < bytes.length; i += 8192) {
    exact += String.fromCharCode(...bytes.subarray(i, i + 8192));
  }
  return exact;
}

/** Latin-1 text as bytes (the inverse of {@linkcode latin1}). */
export function latin1Bytes(text: string): Uint8Array {
  const out = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) out[i] = text.charCodeAt(i);
  return out;
}

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/** `line` from `from` on, without the spaces and tabs at either end (a regex replace cost more). */
function trimmed(line: string, from: number): string {
  let start = from;
  let end = line.length;
  while (start < end && (line.charCodeAt(start) === 32 || line.charCodeAt(start) === 9)) start++;
  while (end > start && (line.charCodeAt(end - 1) === 32 || line.charCodeAt(end - 1) === 9)) end--;
  return line.slice(start, end);
}

function parseHead(bytes: Uint8Array): Head | "bad" {
  const lines = latin1(bytes).split("\r\n");
  const start = lines[0].split(" ");
  // A status line may leave out its reason phrase.
  if (start.length === 2 && start[0].startsWith("HTTP/")) start.push("");
  if (
    start.length < 3 || !/^HTTP\/1\.[01]$/.test(start[0].startsWith("HTTP/") ? start[0] : start[2])
  ) {
    return "bad";
  }
  const fields: [string, string][] = [];
  for (let i = 1; i < lines.length - 2; i++) {
    const line = lines[i];
    const colon = line.indexOf(":");
    // A folded line (obs-fold) or a name with a space is not what a client we serve sends.
    if (colon <= 0 || !TOKEN.test(line.slice(0, colon))) return "bad";
    // Trimmed of HTTP whitespace only, as a Headers object does.
    fields.push([line.slice(0, colon), trimmed(line, colon + 1)]);
  }
  return {
    start: [start[0], start[1], start.slice(2).join(" ")],
    fields,
    length: bytes.length,
  };
}

/**
 * A head's fields as a Headers object would give them (names in lower
 * case and sorted, repeated values joined with ", "), read without building
 * one: under load, building and walking Headers cost the byte-level
 * recorder about a fourteenth of its time.
 */
export class HeadFields implements HeaderSource {
  #values = new Map<string, string>();

  constructor(head: Head) {
    for (const [name, value] of head.fields) {
      const lower = name.toLowerCase();
      const before = this.#values.get(lower);
      this.#values.set(lower, before === undefined ? value : `${before}, ${value}`);
    }
  }

  /** The field's value, by lower-case name. */
  get(name: string): string | null {
    return this.#values.get(name) ?? null;
  }

  forEach(callback: (value: string, name: string) => void): void {
    for (const name of [...this.#values.keys()].sort()) callback(this.#values.get(name)!, name);
  }
}

/**
 * Decodes a chunked body as it arrives. {@linkcode push} takes raw bytes and
 * returns how many of them belong to the body, the data they carried, and
 * whether the body ended there (trailers included).
 */
export class ChunkedDecoder {
  /** Bytes of the current chunk's data still to come. */
  #left = 0;
  /** Bytes of a size line or a CRLF not yet complete. */
  #line = "";
  #state: "size" | "data" | "data-end" | "trailer" | "done" = "size";
  /** Set when the framing is broken. */
  broken = false;

  get done(): boolean {
    return this.#state === "done";
  }

  /** Consumes what of `bytes` belongs to this body. */
  push(bytes: Uint8Array): { used: number; data: Uint8Array[] } {
    const data: Uint8Array[] = [];
    let i = 0;
    while (i < bytes.length && this.#state !== "done" && !this.broken) {
      if (this.#state === "data") {
        const n = Math.min(this.#left, bytes.length - i);
        data.push(bytes.subarray(i, i + n));
        i += n;
        this.#left -= n;
        if (this.#left === 0) this.#state = "data-end";
        continue;
      }
      // size, data-end and trailer are lines: gather to the LF.
      const lf = bytes.indexOf(10, i);
      const end = lf < 0 ? bytes.length : lf + 1;
      this.#line += latin1(bytes.subarray(i, end));
      i = end;
      if (lf < 0) {
        if (this.#line.length > 4096) this.broken = true;
        continue;
      }
      const line = this.#line.replace(/\r?\n$/, "");
      this.#line = "";
      this.#step(line);
    }
    return { used: i, data };
  }

  #step(line: string): void {
    if (this.#state === "data-end") {
      if (line !== "") this.broken = true;
      this.#state = "size";
    } else if (this.#state === "size") {
      const size = parseInt(line.split(";")[0].trim(), 16);
      if (!/^[0-9a-fA-F]+/.test(line) || !Number.isFinite(size)) this.broken = true;
      else if (size === 0) this.#state = "trailer";
      else {
        this.#left = size;
        this.#state = "data";
      }
    } else if (this.#state === "trailer" && line === "") {
      this.#state = "done";
    }
  }
}
