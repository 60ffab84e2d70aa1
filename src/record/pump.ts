/**
 * The recorder's copy loop: bytes pass through verbatim, and each chunk's
 * complete lines are handed over before the chunk is forwarded, so what a
 * kill interrupts was never forwarded unrecorded.
 *
 * @module
 */
import { LineSplitter } from "../framing/jsonl.ts";
import type { LineTooLongError } from "../framing/jsonl.ts";
import { chunkSource, chunkWriter } from "../runtime/immediate.ts";
import type { BlockingEnd } from "../runtime/mod.ts";

/**
 * Copies bytes from `from` to `to` verbatim, handing the lines each chunk
 * completed to `onLines` before the chunk is forwarded.
 */
export async function pump(
  from: ReadableStream<Uint8Array>,
  to: WritableStream<Uint8Array>,
  onLines: (lines: string[]) => void,
  onOverlong: (error: LineTooLongError) => void,
): Promise<void> {
  // An over-long line is still forwarded; only its recording is skipped.
  const splitter = new LineSplitter({ onOverlong });
  const writer = to.getWriter();
  const write = chunkWriter(to, writer);
  const source = chunkSource(from);
  try {
    while (true) {
      const value = await source.next();
      if (value === undefined) break;
      const lines = splitter.push(value);
      if (lines.length > 0) onLines(lines);
      // Waiting for the write is the backpressure: a slow reader slows the
      // reads above (a write at once blocks until the reader takes it).
      const written = write(value);
      if (written) await written;
    }
    endLines(splitter, onLines);
  } catch {
    // The other side went away; what was forwarded is already on disk.
  } finally {
    await writer.close().catch(() => {});
    source.release();
  }
}

/**
 * {@linkcode pump} for a thread of its own: reads block until bytes arrive
 * and writes until they are taken, with no event loop between. Returns when
 * `from` ends, `to` refuses a write (its reader is gone), or `onLines`
 * returns false (the recording is closed: the chunk is not forwarded).
 */
export function pumpBlocking(
  from: BlockingEnd,
  to: BlockingEnd,
  onLines: (lines: string[]) => boolean,
  onOverlong: (error: LineTooLongError) => void,
): void {
  const splitter = new LineSplitter({ onOverlong });
  const buffer = new Uint8Array(1 << 16);
  try {
    while (true) {
      const read = from.read(buffer);
      if (read === null || read === 0) break;
      const chunk = buffer.subarray(0, read);
      const lines = splitter.push(chunk);
      if (lines.length > 0 && !onLines(lines)) return;
      to.write(chunk);
    }
    endLines(splitter, onLines);
  } catch {
    // The other side went away; what was forwarded is already on disk.
  }
}

/** Hands over the lines the end of the input completes, an unterminated last one included. */
function endLines(splitter: LineSplitter, onLines: (lines: string[]) => unknown): void {
  const { lines, rest } = splitter.end();
  if (rest !== undefined) lines.push(splitter.finish(rest));
  if (lines.length > 0) onLines(lines);
}
