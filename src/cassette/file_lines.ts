/**
 * A cassette file's lines, a batch at a time: decoded chunk by chunk, or
 * split on the bytes with each line's byte range (./byte_lines.ts). Both
 * start from a head already read (./open.ts), so the file is opened once.
 *
 * @module
 */
import { LineSplitter } from "../framing/jsonl.ts";
import { headAndRest, openCassetteHead } from "./open.ts";
import type { CassetteHead } from "./open.ts";
import { byteLineBatches } from "./byte_lines.ts";
import type { LineBatch } from "./byte_lines.ts";

/**
 * The lines of text chunks, a chunk's worth at a time, without their
 * terminators; `onUnterminated` hears of a last line with no newline. A loop
 * over the splitter rather than a TransformStream: the stream machinery cost
 * a small cassette's load several milliseconds more at start-up, before V8
 * had optimised it (replay starts in every client session).
 * `scripts/bench.ts` times this against JSON.parse alone.
 */
async function* textLineBatches(
  chunks: AsyncIterable<string>,
  onUnterminated: (text: string) => void,
): AsyncGenerator<string[]> {
  const splitter = new LineSplitter();
  for await (const chunk of chunks) {
    const lines = splitter.pushText(chunk);
    if (lines.length > 0) yield lines;
  }
  const { lines, rest } = splitter.end();
  if (rest !== undefined) {
    onUnterminated(rest);
    lines.push(splitter.finish(rest));
  }
  if (lines.length > 0) yield lines;
}

/** The lines of the file at `path` (opened here), as {@linkcode textLineBatches}. */
export async function* lineBatches(
  path: string,
  onUnterminated: (text: string) => void = () => {},
): AsyncGenerator<string[]> {
  yield* textLineBatches(headAndRest(await openCassetteHead(path)), onUnterminated);
}

const NO_OFFSETS: number[] = [];

/** The lines of a text head and the rest after it. */
export async function* textLines(
  head: CassetteHead<string>,
  onUnterminated: (text: string) => void,
): AsyncGenerator<LineBatch> {
  for await (const texts of textLineBatches(headAndRest(head), onUnterminated)) {
    yield { texts, starts: NO_OFFSETS, ends: NO_OFFSETS };
  }
}

/** The lines of a byte head and the rest after it, with their byte ranges. */
export function byteLines(
  head: CassetteHead<Uint8Array>,
  onUnterminated: (text: string) => void,
): AsyncGenerator<LineBatch> {
  return byteLineBatches(headAndRest(head), onUnterminated);
}
