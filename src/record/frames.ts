/**
 * Turns one line of wire text into the cassette entry that keeps it:
 * a message entry when it is JSON, a raw entry otherwise.
 *
 * @module
 */
import type { Direction, MessageEntry, RawEntry } from "../cassette/format.ts";
import type { Json } from "../jsonrpc.ts";

/** The entry for one line seen on the wire. */
export function entryForLine(line: string, dir: Direction, t: number, session?: string): MessageEntry | RawEntry {
  const base = session === undefined ? { t } : { t, session };
  const trimmed = line.trim();
  if (trimmed.startsWith("{") || trimmed.startsWith("[")) {
    try {
      return { type: "message", ...base, dir, msg: JSON.parse(trimmed) as Json };
    } catch {
      // Not JSON after all: kept as raw text below.
    }
  }
  return { type: "raw", ...base, dir, text: line };
}

/** Milliseconds since `start`, to the microsecond. */
export function elapsed(start: number): number {
  return Math.round((performance.now() - start) * 1000) / 1000;
}
