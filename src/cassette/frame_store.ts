/**
 * Frames left in the cassette file and read back when used. A streaming
 * replay of a 35.7 MB cassette held 23 MB of answer text and 16 MB of parsed
 * requests; V8 grows its heap to about twice what it holds, so that alone
 * put replay at several times the cassette's size in memory. Held on disk,
 * a frame costs its place: where its text starts and ends in the file, and
 * a check of that text.
 *
 * Each read is checked against the text the file held when it was loaded:
 * a cassette rewritten under a running replay ends it with a one-line error,
 * never a wrong answer.
 *
 * @module
 */
import { CassetteFormatError } from "../errors/errors.ts";
import { fnv1a32 } from "../util/fnv.ts";
import type { MessageEntry } from "./format.ts";
import type { RandomReads } from "../runtime/mod.ts";

/** Where a frame's text lies in the file, and its check. */
export interface FramePlace {
  start: number;
  end: number;
  check: number;
}

const places = new WeakMap<MessageEntry, FramePlace>();

/** Marks where in the file the frame text of `entry` lies. */
export function placeFrame(entry: MessageEntry, place: FramePlace): void {
  places.set(entry, place);
}

/** Where the frame text of `entry` lies, if the reader placed it. */
export function framePlace(entry: MessageEntry): FramePlace | undefined {
  return places.get(entry);
}

/**
 * A frame's check: cheap enough to run over every frame at load, and a
 * changed frame of the same length still fails it.
 */
export function textCheck(text: string): number {
  return fnv1a32(text);
}

/** The cassette file, open for reading frames back for as long as the replay runs. */
export class FrameStore {
  readonly #decoder = new TextDecoder("utf-8", { ignoreBOM: true });
  #buffer = new Uint8Array(4096);
  #changed!: (error: CassetteFormatError) => void;
  /**
   * Rejects once a read finds the file changed: the request that read it
   * gets an error, and a replay that watches this stops with it.
   */
  readonly changed: Promise<never> = new Promise<never>((_, reject) => (this.#changed = reject));

  constructor(readonly path: string, private readonly reads: RandomReads) {
    this.changed.catch(() => {});
  }

  /** The text at `start`..`end`; throws when it is not the text placed there at load. */
  text(start: number, end: number, check: number, line: number): string {
    const length = end - start;
    if (this.#buffer.length < length) {
      this.#buffer = new Uint8Array(Math.max(length, 2 * this.#buffer.length));
    }
    const bytes = this.#buffer.subarray(0, length);
    const read = this.reads.readAt(bytes, start);
    const text = read === length ? this.#decoder.decode(bytes) : "";
    if (read !== length || textCheck(text) !== check) {
      const error = new CassetteFormatError(
        this.path,
        line,
        "the file changed on disk while it was being replayed; start the replay again",
      );
      this.#changed(error);
      throw error;
    }
    return text;
  }
}
