/**
 * A file's text as a stream, shared by the runtimes: each gives the way to
 * open and read its files, this does the rest with Web APIs only.
 *
 * @module
 */

/** An open file, as far as reading it goes. */
export interface FileReads {
  /** Fills `buffer` from the current position; resolves with the count, or null at the end. */
  read(buffer: Uint8Array): Promise<number | null>;
  close(): void | Promise<void>;
}

/**
 * The file's text, decoded as UTF-8 (a leading BOM dropped), a chunk at a
 * time. Two buffers take turns: the next read is under way while the text
 * of the last is being used, and no chunk is allocated per read.
 *
 * Chunks are 16 KiB. With 1 MiB chunks, `lint` of a 35.7 MB cassette peaked
 * at 181 MB of RSS, with 64 KiB at 112–134 MB, with 16 KiB at 95 MB: the
 * lines of a big chunk live across many awaits, survive the young
 * generation's collections and are promoted, and V8 lets old garbage grow.
 * Reading that file alone took 40–53 ms in 1 MiB chunks, 43–62 ms in 64 KiB
 * and 63–66 ms in 16 KiB (four rounds each), against more than a second to
 * parse its lines. A streaming replay also answers sooner: its first batch
 * of lines waits for less text.
 */
export function fileText(
  open: () => Promise<FileReads>,
  chunkBytes = 16 << 10,
): ReadableStream<string> {
  const decoder = new TextDecoder();
  return fileChunks(open, chunkBytes, (filled) => decoder.decode(filled, { stream: true }), () => {
    const rest = decoder.decode();
    return rest === "" ? undefined : rest;
  });
}

/**
 * The file's bytes, each chunk a copy of its own (16 KiB, as
 * {@linkcode fileText} reads, for the same reasons).
 */
export function fileBytes(
  open: () => Promise<FileReads>,
  chunkBytes = 16 << 10,
): ReadableStream<Uint8Array> {
  return fileChunks(open, chunkBytes, (filled) => filled.slice());
}

/**
 * Reads the file in chunks through two buffers that take turns, handing each
 * filled one to `take` before this returns (the buffer is then free for the
 * read after next); `flush` gives what is left at the end.
 */
function fileChunks<T>(
  open: () => Promise<FileReads>,
  chunkBytes: number,
  take: (filled: Uint8Array) => T,
  flush: () => T | undefined = () => undefined,
): ReadableStream<T> {
  const buffers = [new Uint8Array(chunkBytes), new Uint8Array(chunkBytes)];
  let file: FileReads | undefined;
  let turn = 0;
  let reading: Promise<number | null> | undefined;
  return new ReadableStream<T>({
    async start() {
      file = await open();
      reading = file.read(buffers[turn]);
    },
    async pull(controller) {
      const read = await reading!;
      if (read === null) {
        await file!.close();
        const rest = flush();
        if (rest !== undefined) controller.enqueue(rest);
        controller.close();
        return;
      }
      const filled = buffers[turn];
      turn = 1 - turn;
      reading = file!.read(buffers[turn]);
      controller.enqueue(take(filled.subarray(0, read)));
    },
    async cancel() {
      await reading?.catch(() => null);
      await file?.close();
    },
  }, { highWaterMark: 0 });
}
