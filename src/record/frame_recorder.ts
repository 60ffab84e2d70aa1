/**
 * The stdio recorder's cassette lines for the lines of a chunk, written in
 * one append before the chunk is forwarded. Used on the main thread and on
 * the recorder's threads (./threads.ts) alike.
 *
 * @module
 */
import type { Direction, Entry, MessageEntry } from "../cassette/format.ts";
import { entryText, keepFrameText, ownFrameText } from "../cassette/frame_text.ts";
import type { CassetteWriter } from "../cassette/writer.ts";
import type { LineTooLongError } from "../framing/jsonl.ts";
import type { Redactor } from "../redact/mod.ts";
import {
  elapsed,
  entryForLine,
  isBareJson,
  messageEntryLine,
  notRecordedNote,
  notRecordedText,
  parseLine,
} from "./frames.ts";

/** Options of {@linkcode FrameRecorder}. */
export interface FrameRecorderOptions {
  redactor?: Redactor;
  /** The session label of the entries, if the cassette has sessions. */
  session?: string;
  /** When the recording started, on {@linkcode clockNow}'s clock. */
  start: number;
  /** Diagnostics, one line each (a frame that could not be recorded). */
  log?: (line: string) => void;
}

/** Writes the frames of one recording to its cassette. */
export class FrameRecorder {
  #writer: CassetteWriter;
  #options: FrameRecorderOptions;

  constructor(writer: CassetteWriter, options: FrameRecorderOptions) {
    this.#writer = writer;
    this.#options = options;
  }

  /**
   * Writes the entries of the lines one chunk completed: one write for all,
   * so a burst of small frames costs one system call, not one each.
   */
  record(lines: string[], dir: Direction): void {
    const t = elapsed(this.#options.start);
    let text = "";
    for (const line of lines) text += this.#lineFor(line, dir, t);
    this.#writer.appendLines(text);
  }

  /** Marks the place of a line longer than the cap: it was forwarded, not recorded. */
  overlong(dir: Direction, error: LineTooLongError): void {
    this.#writer.append(
      this.#notRecorded(dir, `a line longer than the cap of ${error.maxChars} characters`),
    );
  }

  /**
   * The cassette line for a frame. A message with nothing to redact, as most
   * frames can be seen to hold from their text alone, is kept as its own
   * text; anything else is redacted, and a message written as its own text
   * with only the redacted values changed.
   */
  #lineFor(line: string, dir: Direction, t: number): string {
    const { redactor, session } = this.#options;
    if (
      isBareJson(line) && (!redactor || redactor.keepsLine(line, dir)) &&
      parseLine(line) !== undefined
    ) {
      return messageEntryLine(line, dir, t, session);
    }
    const entry = entryForLine(line, dir, t, session);
    let scrubbed: Entry = entry;
    try {
      if (redactor && entry.type === "raw") {
        scrubbed = { ...entry, text: redactor.text(entry.text, dir) };
      } else if (redactor && entry.type === "message") {
        scrubbed = { ...entry, msg: redactor.message(entry.msg, dir) };
      }
    } catch (error) {
      // Unredacted text must not reach the disk: keep a marker in the frame's place.
      return this.#markerLine(dir, line, "redacted", error);
    }
    try {
      return scrubbed.type === "message" && entry.type === "message"
        ? this.#messageLine(line, entry, scrubbed)
        : entryLine(scrubbed);
    } catch (error) {
      // Nested deeper than JSON.stringify goes: the frame's place is marked.
      return this.#markerLine(dir, line, "written", error);
    }
  }

  /**
   * A message as its frame's own text with only what redaction changed
   * written anew. A frame with a carriage return inside keeps its text in
   * `frame`, so no cassette line holds one (a reader that takes CR for a line
   * break would cut it there).
   */
  #messageLine(line: string, parsed: MessageEntry, scrubbed: MessageEntry): string {
    keepFrameText(scrubbed, ownFrameText(line, parsed.msg, scrubbed.msg));
    return entryText(scrubbed) + "\n";
  }

  /** The line that marks the place of a frame that could not be redacted, or written. */
  #markerLine(dir: Direction, line: string, what: "redacted" | "written", error: unknown): string {
    const why = (error as Error).message;
    return entryLine(
      this.#notRecorded(
        dir,
        `a frame of ${line.length} characters that could not be ${what} (${why})`,
      ),
    );
  }

  /** A frame that was forwarded but cannot be kept: the cassette and the log say so. */
  #notRecorded(dir: Direction, what: string): Entry {
    const { session } = this.#options;
    this.#options.log?.(notRecordedNote(what, dir));
    return {
      type: "raw",
      t: elapsed(this.#options.start),
      ...(session === undefined ? {} : { session }),
      dir,
      text: notRecordedText(what),
    };
  }
}

/** One serialised cassette line. */
function entryLine(entry: Entry): string {
  return JSON.stringify(entry) + "\n";
}
