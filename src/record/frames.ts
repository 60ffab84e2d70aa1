/**
 * Turns one line of wire text into the cassette entry that keeps it:
 * a message entry when it is JSON, a raw entry otherwise.
 *
 * @module
 */
import type { Direction, MessageEntry, RawEntry } from "../cassette/format.ts";
import { tryParseJson } from "../json/values.ts";
import type { Json } from "../jsonrpc/messages.ts";
import { messageLine } from "../cassette/frame_text.ts";

/** What a cassette holds in place of a frame that was forwarded but could not be recorded. */
export function notRecordedText(what: string): string {
  return `[mcp-cassette: ${what} was forwarded but not recorded]`;
}

/** The diagnostic line for such a frame (both recorders say the same). */
export function notRecordedNote(what: string, dir: Direction): string {
  return `${what} (${dir}) was forwarded but not recorded`;
}

/** The entry for one line seen on the wire. */
export function entryForLine(
  line: string,
  dir: Direction,
  t: number,
  session?: string,
): MessageEntry | RawEntry {
  const msg = LOOKS_LIKE_JSON.test(line) ? parseLine(line) : undefined;
  if (msg !== undefined) {
    return session === undefined
      ? { type: "message", t, dir, msg }
      : { type: "message", t, session, dir, msg };
  }
  return session === undefined
    ? { type: "raw", t, dir, text: line }
    : { type: "raw", t, session, dir, text: line };
}

/**
 * True when `line` starts and ends with the brackets of an object or an
 * array and holds no carriage return: if it parses, it is JSON text with
 * nothing around it, and can stand for its value inside a larger JSON text
 * on one cassette line. (A CR is JSON whitespace, but a reader that takes
 * CR for a line break, as Python's text files do, would cut the line there.)
 */
export function isBareJson(line: string): boolean {
  const first = line.charCodeAt(0);
  const last = line.charCodeAt(line.length - 1);
  return ((first === 0x7b && last === 0x7d) || (first === 0x5b && last === 0x5d)) &&
    !line.includes("\r");
}

/**
 * The cassette line of a message entry whose message is `line`, a frame's
 * own text (which {@linkcode isBareJson} said can stand for it): the frame
 * kept as it came, not parsed and written again (the layout is
 * `messageLine`'s, the one writer of it).
 */
export function messageEntryLine(
  line: string,
  dir: Direction,
  t: number,
  session?: string,
): string {
  return messageLine(line, session === undefined ? { dir, t } : { dir, t, session }) + "\n";
}

/** An object or an array, after optional whitespace. */
const LOOKS_LIKE_JSON = /^\s*[{[]/;

/**
 * The line as JSON, or undefined. JSON.parse skips JSON's own whitespace, so
 * the trimmed copy (for other Unicode spaces around the value) is made only
 * when that fails.
 */
export function parseLine(line: string): Json | undefined {
  return (tryParseJson(line) ?? tryParseJson(line.trim()))?.value;
}

/**
 * Now, in milliseconds on a clock all of this process's threads share (each
 * thread's `performance.now()` counts from that thread's own start).
 */
export function clockNow(): number {
  return performance.timeOrigin + performance.now();
}

/** Milliseconds since `start` (a {@linkcode clockNow}), to the microsecond. */
export function elapsed(start: number): number {
  return Math.round((clockNow() - start) * 1000) / 1000;
}
