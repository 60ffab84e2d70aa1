/**
 * A cassette line of ours, checked: the header on line 1, an entry on every
 * other, each message keeping its frame text or placed where that text lies
 * in the file.
 *
 * @module
 */
import { CassetteFormatError } from "../errors/errors.ts";
import { ENTRY_TYPES, FORMAT_NAME, FORMAT_VERSION } from "./format.ts";
import type { CassetteHeader, Entry, MessageEntry } from "./format.ts";
import {
  adoptFrameMember,
  keepFrameText,
  keptFrameText,
  msgSpanOfLine,
  msgTextOfLine,
} from "./frame_text.ts";
import { placeFrame, textCheck } from "./frame_store.ts";
import { isObject } from "../util/helpers.ts";

/**
 * `text` in a string of its own: a slice of a longer string keeps all of it
 * alive in V8, and the text of a read chunk is a mebibyte.
 */
function ownCopy(text: string): string {
  return (" " + text).slice(1);
}

/** Line 1, checked to be a header this build reads. */
export function checkHeader(path: string, value: unknown): CassetteHeader {
  const header = value as Partial<CassetteHeader>;
  if (header === null || typeof header !== "object" || header.format !== FORMAT_NAME) {
    throw new CassetteFormatError(path, 1, `expected a header with "format": "${FORMAT_NAME}"`);
  }
  if (typeof header.version !== "number" || header.version > FORMAT_VERSION || header.version < 1) {
    throw new CassetteFormatError(
      path,
      1,
      `unsupported cassette format version ${
        JSON.stringify(header.version)
      } (this build reads 1 to ${FORMAT_VERSION})`,
    );
  }
  if (header.era !== undefined && header.era !== "legacy" && header.era !== "modern") {
    throw new CassetteFormatError(path, 1, `unknown era ${JSON.stringify(header.era)}`);
  }
  return header as CassetteHeader;
}

function checkEntry(path: string, line: number, value: unknown): Entry {
  const entry = value as Partial<Entry>;
  if (entry === null || typeof entry !== "object" || Array.isArray(entry)) {
    throw new CassetteFormatError(path, line, "an entry must be a JSON object");
  }
  if (typeof entry.type !== "string" || !ENTRY_TYPES.has(entry.type)) {
    throw new CassetteFormatError(path, line, `unknown entry type ${JSON.stringify(entry.type)}`);
  }
  if (typeof entry.t !== "number") {
    throw new CassetteFormatError(path, line, `entry has no numeric "t"`);
  }
  if (
    (entry.type === "message" || entry.type === "raw") && entry.dir !== "c2s" && entry.dir !== "s2c"
  ) {
    throw new CassetteFormatError(
      path,
      line,
      `"dir" must be "c2s" or "s2c", not ${JSON.stringify(entry.dir)}`,
    );
  }
  if (entry.type === "message" && !("msg" in entry)) {
    throw new CassetteFormatError(path, line, `message entry has no "msg"`);
  }
  return entry as Entry;
}

/**
 * A checked entry; a message keeps its frame text (see ./frame_text.ts):
 * only where it differs from the serialised message, or, with `everyText`,
 * always (a replay that holds frames as text).
 */
export function entryOfLine(
  path: string,
  line: number,
  value: unknown,
  text: string,
  everyText: boolean,
  /** The line's byte range in the file, for a frame to be placed there (./frame_store.ts). */
  bytes?: LineBytes,
): Entry {
  const entry = checkEntry(path, line, value);
  if (entry.type === "message") {
    const problem = adoptFrameMember(entry);
    if (problem) throw new CassetteFormatError(path, line, problem);
    // A frame given as its own `frame` string is not where `msg` is in the line.
    if (bytes && keptFrameText(entry) === undefined && placeOnDisk(entry, text, bytes)) {
      return entry;
    }
    const frame = msgTextOfLine(text, entry);
    if (frame === undefined) return entry;
    // A server frame held as text must not keep the read chunk it was sliced from.
    const held = everyText && entry.dir === "s2c";
    keepFrameText(entry, held ? ownCopy(frame) : frame, held);
  }
  return entry;
}

/** Where a line's text lies in the file (one object, updated line by line). */
export interface LineBytes {
  start: number;
  end: number;
}

/**
 * Places the frame of `entry`, whose line is `text` at `bytes` in the file,
 * for reading back (./frame_store.ts): client messages and server answers,
 * the bulk of a cassette. A line that is not all ASCII has its
 * byte offsets counted in UTF-8; one whose UTF-8 is not its length in the
 * file (it held invalid UTF-8) is not placed, and keeps its text in memory.
 */
function placeOnDisk(entry: MessageEntry, text: string, bytes: LineBytes) {
  // What the server sent unasked (notifications, requests) replay holds as text.
  if (entry.dir === "s2c" && isObject(entry.msg) && "method" in entry.msg) return false;
  const span = msgSpanOfLine(text, entry);
  if (!span) return false;
  const frame = text.slice(span.start, span.end);
  let start = bytes.start + span.start;
  let end = bytes.start + span.end;
  if (text.length !== bytes.end - bytes.start) {
    const before = utf8Length(text, 0, span.start);
    const within = utf8Length(text, span.start, span.end);
    const after = utf8Length(text, span.end, text.length);
    if (before + within + after !== bytes.end - bytes.start) return false;
    start = bytes.start + before;
    end = start + within;
  }
  placeFrame(entry, { start, end, check: textCheck(frame) });
  return true;
}

/**
 * The UTF-8 length of `text` from `from` to `to`, counted without encoding
 * it. Decoded text is well-formed (a bad byte became U+FFFD, three bytes), so
 * a high surrogate always starts a four-byte pair.
 */
function utf8Length(text: string, from: number, to: number): number {
  let bytes = 0;
  for (let i = from; i < to; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code < 0xdc00) {
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}
