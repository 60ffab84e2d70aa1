/**
 * The timeline of `inspect --timeline`, built entry by entry: only the rows
 * are kept.
 *
 * @module
 */
import type { CassetteSink } from "../cassette/entries.ts";
import type { LocatedEntry } from "../cassette/reader.ts";
import { DEFAULT_SESSION, listMessages } from "../surface/mod.ts";
import type { TimelineRow } from "./types.ts";

function rowsOf(entry: LocatedEntry): TimelineRow[] {
  const base = { t: entry.t, session: entry.session ?? DEFAULT_SESSION, line: entry.line };
  switch (entry.type) {
    case "message":
      return listMessages([entry]).map((m) => ({
        ...base,
        dir: m.dir,
        kind: m.kind,
        what: [m.method, m.id !== undefined ? `#${JSON.stringify(m.id)}` : undefined].filter(
          Boolean,
        ).join(" "),
      }));
    case "raw":
      return [{
        ...base,
        dir: entry.dir,
        kind: "raw",
        what: JSON.stringify(entry.text.slice(0, 60)),
      }];
    case "session":
      return [{
        ...base,
        dir: "",
        kind: `session-${entry.event}`,
        what: entry.exitCode !== undefined
          ? `exit ${entry.exitCode}`
          : entry.reason ?? entry.sessionId ?? "",
      }];
    case "http-request":
      return [{
        ...base,
        dir: "c2s",
        kind: "http-request",
        what: `x${entry.x} ${entry.method} ${entry.path}`,
      }];
    case "http-response":
      return [{
        ...base,
        dir: "s2c",
        kind: "http-response",
        what: `x${entry.x} ${entry.status} ${entry.body}`,
      }];
    case "sse-event":
      return [{
        ...base,
        dir: "s2c",
        kind: "sse-event",
        what: `x${entry.x} ${entry.sse.event ?? "message"}`,
      }];
    case "http-end":
      return [{ ...base, dir: "", kind: "http-end", what: `x${entry.x} ${entry.reason}` }];
  }
}

/** Collects timeline rows, optionally only of entries whose JSON contains `grep`. */
export class TimelineRun implements CassetteSink {
  private readonly needle?: string;
  private readonly rows: TimelineRow[] = [];

  constructor(grep?: string) {
    this.needle = grep?.toLowerCase();
  }

  /** The header is not on the timeline. */
  start(): void {}

  /** One entry's rows (batches opened). */
  entry(entry: LocatedEntry): void {
    if (this.needle !== undefined) {
      const { line: _line, ...plain } = entry;
      if (!JSON.stringify(plain).toLowerCase().includes(this.needle)) return;
    }
    this.rows.push(...rowsOf(entry));
  }

  /** A torn line is not on the timeline. */
  torn(): void {}

  /** The rows in file order. */
  finish(): TimelineRow[] {
    return this.rows;
  }
}
