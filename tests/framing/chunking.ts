/**
 * Test helpers for framers: feed bytes through a TransformStream in chosen
 * pieces and collect what comes out, so tests can prove chunk boundaries never
 * change the result.
 *
 * @module
 */

/** Runs `chunks` through `transform` and returns everything it emits. */
export async function runThrough<I, O>(
  transform: TransformStream<I, O>,
  chunks: I[],
): Promise<O[]> {
  const source = new ReadableStream<I>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });
  const reader = source.pipeThrough(transform).getReader();
  const output: O[] = [];
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return output;
    output.push(value);
  }
}

/** `bytes` cut into reads of `size` bytes (the last one may be shorter). */
export function fixedSizeChunks(bytes: Uint8Array, size: number): Uint8Array[] {
  const chunks: Uint8Array[] = [];
  for (let start = 0; start < bytes.length; start += size) {
    chunks.push(bytes.slice(start, start + size));
  }
  return chunks;
}

/** `bytes` cut at the given offsets (any order, duplicates and out-of-range ignored). */
export function cutAt(bytes: Uint8Array, offsets: number[]): Uint8Array[] {
  const cuts = [...new Set(offsets.filter((offset) => offset > 0 && offset < bytes.length))]
    .sort((a, b) => a - b);
  const chunks: Uint8Array[] = [];
  let start = 0;
  for (const cut of [...cuts, bytes.length]) {
    chunks.push(bytes.slice(start, cut));
    start = cut;
  }
  return chunks;
}

/**
 * Every way the tests cut a stream: each read size from 1 byte to the whole
 * length, then each single split point (two reads), with a label for messages.
 */
export function* everyChunking(bytes: Uint8Array): Generator<[string, Uint8Array[]]> {
  for (let size = 1; size <= bytes.length; size++) {
    yield [`reads of ${size} bytes`, fixedSizeChunks(bytes, size)];
  }
  for (let split = 0; split <= bytes.length; split++) {
    yield [`split at byte ${split}`, [bytes.slice(0, split), bytes.slice(split)]];
  }
}
