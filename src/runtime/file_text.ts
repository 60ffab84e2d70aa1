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
 * of the last is being used, and no chunk is allocated per read. Reading a
 * 100 MB cassette this way, with its lines parsed, took 212-220 ms against
 * 236-244 ms for a fresh 1 MiB buffer per read handed on as bytes (median of
 * six passes, three runs each; `scripts/bench.ts` now times the reader).
 */
export function fileText(
  open: () => Promise<FileReads>,
  chunkBytes = 1 << 20,
  /**
   * The first read is smaller: a replay serving while it reads answers the
   * handshake from the top of the file, and decoding and splitting a whole
   * mebibyte first cost it milliseconds at start-up.
   */
  firstBytes = 64 << 10,
): ReadableStream<string> {
  const buffers = [new Uint8Array(chunkBytes), new Uint8Array(chunkBytes)];
  const decoder = new TextDecoder();
  let file: FileReads | undefined;
  let turn = 0;
  let reading: Promise<number | null> | undefined;
  return new ReadableStream<string>({
    async start() {
      file = await open();
      reading = file.read(buffers[turn].subarray(0, firstBytes));
    },
    async pull(controller) {
      const read = await reading!;
      if (read === null) {
        await file!.close();
        const rest = decoder.decode();
        if (rest !== "") controller.enqueue(rest);
        controller.close();
        return;
      }
      const filled = buffers[turn];
      turn = 1 - turn;
      reading = file!.read(buffers[turn]);
      // Decoded before this returns, so the buffer is free for the read after next.
      controller.enqueue(decoder.decode(filled.subarray(0, read), { stream: true }));
    },
    async cancel() {
      await reading?.catch(() => null);
      await file?.close();
    },
  }, { highWaterMark: 0 });
}
