/**
 * Reading files on Deno: as a stream of text or bytes, and at any position.
 *
 * @module
 */
import { fileBytes, fileText } from "./file_text.ts";
import type { FileReads } from "./file_text.ts";
import { Deno } from "./deno_api.ts";
import type { RandomReads } from "./types.ts";

/** Opens `path` for the streams below; the file opens at the first read. */
function opener(path: string): () => Promise<FileReads> {
  return async () => {
    const file = await Deno.open(path, { read: true });
    return { read: (buffer) => file.read(buffer), close: () => file.close() };
  };
}

/** The file's text. */
export function readFileText(path: string): ReadableStream<string> {
  return fileText(opener(path));
}

/** The file's bytes. */
export function readFileBytes(path: string): ReadableStream<Uint8Array> {
  return fileBytes(opener(path));
}

/** `Deno.SeekMode.Start`. */
const FROM_START = 0;

/** The file open for reads at any position. */
export function openRandomReads(path: string): RandomReads {
  const file = Deno.openSync(path, { read: true });
  return {
    readAt(buffer, position) {
      file.seekSync(position, FROM_START);
      let filled = 0;
      while (filled < buffer.length) {
        const read = file.readSync(buffer.subarray(filled));
        if (read === null || read === 0) break;
        filled += read;
      }
      return filled;
    },
    close: () => file.close(),
  };
}
