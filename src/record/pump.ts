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
    const { lines, rest } = splitter.end();
    if (rest !== undefined) lines.push(splitter.finish(rest));
    if (lines.length > 0) onLines(lines);
  } catch {
    // The other side went away; what was forwarded is already on disk.
  } finally {
    await writer.close().catch(() => {});
    source.release();
  }
}
