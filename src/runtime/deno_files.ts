/**
 * Files on Deno: read as a stream of text or bytes, or at any position, and
 * opened to append to without following a symbolic link.
 *
 * @module
 */
import { fileBytes, fileText } from "./file_text.ts";
import type { FileReads } from "./file_text.ts";
import { Deno } from "./deno_api.ts";
import type { DenoFile } from "./deno_api.ts";
import type { AppendFile, AppendOptions, RandomReads } from "./types.ts";

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

/**
 * Opens `path` to append to. Deno has no `O_NOFOLLOW`: an existing file is
 * opened only if `lstat` saw a plain file, and the file opened must be the
 * one seen (same inode), so a link swapped in between is refused too.
 * `createNew` is `O_EXCL`, which follows nothing.
 */
export function openAppend(path: string, options: AppendOptions = {}): AppendFile {
  if (options.createNew) {
    return appending(Deno.openSync(path, {
      write: true,
      append: true,
      createNew: true,
      ...(options.mode ? { mode: options.mode } : {}),
    }));
  }
  const seen = lstatOrUndefined(path);
  if (seen?.isSymlink) throw linkError(path);
  const file = Deno.openSync(path, { write: true, append: true, create: true });
  const opened = file.statSync();
  if (seen !== undefined && (opened.ino !== seen.ino || opened.dev !== seen.dev)) {
    file.close();
    throw linkError(path);
  }
  return appending(file);
}

function lstatOrUndefined(path: string) {
  try {
    return Deno.lstatSync(path);
  } catch (error) {
    if ((error as { code?: string }).code === "ENOENT") return undefined;
    throw error;
  }
}

/** The error `O_NOFOLLOW` gives, in the same shape. */
function linkError(path: string): Error {
  return Object.assign(new Error(`${path}: it is a symbolic link`), { code: "ELOOP" });
}

function appending(file: DenoFile): AppendFile {
  return {
    write(bytes) {
      let written = 0;
      try {
        while (written < bytes.length) written += file.writeSync(bytes.subarray(written));
      } catch (error) {
        throw Object.assign(error as Error, { written });
      }
    },
    size: () => file.statSync().size,
    truncate: (length) => file.truncateSync(length),
    close: () => file.close(),
  };
}
