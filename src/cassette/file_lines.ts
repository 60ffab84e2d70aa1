/**
 * A cassette file's lines, a batch at a time: decoded chunk by chunk, or
 * split on the bytes with each line's byte range (./byte_lines.ts).
 *
 * @module
 */
import { LineSplitter } from "../framing/jsonl.ts";
import { openCassetteBytes, openCassetteText } from "./open.ts";
import { byteLineBatches } from "./byte_lines.ts";
import type { LineBatch } from "./byte_lines.ts";

/**
 * The file's lines, a chunk's worth at a time, without their terminators;
 * `onUnterminated` hears of a last line with no newline. A reader loop over
 * the splitter rather than a TransformStream: the stream machinery cost a
 * small cassette's load several milliseconds more at start-up, before V8 had
 * optimised it (replay starts in every client session). `scripts/bench.ts`
 * times this against JSON.parse alone.
 */
export async function* lineBatches(
  path: string,
  onUnterminated: (text: string) => void = () => {},
  /** Sees the first chunk (up to 1 MiB) before it is split; may throw to stop. */
  onFirstChunk?: (text: string) => void,
): AsyncGenerator<string[]> {
  const reader = (await openCassetteText(path)).getReader();
  const splitter = new LineSplitter();
  try {
    while (true) {
      const { done, value } = await reader.read();
      if (done) break;
      if (onFirstChunk) {
        onFirstChunk(value);
        onFirstChunk = undefined;
      }
      const lines = splitter.pushText(value);
      if (lines.length > 0) yield lines;
    }
    const { lines, rest } = splitter.end();
    if (rest !== undefined) {
      onUnterminated(rest);
      lines.push(splitter.finish(rest));
    }
    if (lines.length > 0) yield lines;
  } finally {
    reader.cancel().catch(() => {});
  }
}

const NO_OFFSETS: number[] = [];

/** The lines of {@linkcode lineBatches}, or with their byte ranges (./byte_lines.ts). */
export async function* lineSource(
  path: string,
  onUnterminated: (text: string) => void,
  onFirstChunk: ((text: string) => void) | undefined,
  withBytes: boolean,
): AsyncGenerator<LineBatch> {
  if (withBytes) {
    yield* byteLineBatches(await openCassetteBytes(path), onUnterminated, onFirstChunk);
    return;
  }
  for await (const texts of lineBatches(path, onUnterminated, onFirstChunk)) {
    yield { texts, starts: NO_OFFSETS, ends: NO_OFFSETS };
  }
}
