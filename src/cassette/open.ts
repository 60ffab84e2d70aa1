/**
 * Opening cassette paths: only regular files (or links to one) are read or
 * written. A FIFO blocks its reader until some writer comes, a character
 * device such as /dev/zero never ends, and `rename` over a FIFO given as
 * `-o` would silently replace it; each is refused up front with a one-line
 * error instead.
 *
 * @module
 */
import { CassetteFormatError, UsageError } from "../errors.ts";
import { runtime } from "../runtime/mod.ts";
import type { FileInfo } from "../runtime/mod.ts";

/** What the path names once links are followed, or undefined when nothing is there. */
async function target(path: string): Promise<FileInfo | undefined> {
  const info = await runtime.stat(path);
  if (!info?.isSymlink) return info;
  const real = await runtime.realPath(path).catch(() => undefined);
  return real === undefined ? undefined : await runtime.stat(real);
}

/** Why a path that exists cannot be a cassette, or undefined when it can. */
function notRegular(info: FileInfo): string | undefined {
  if (info.isFile) return undefined;
  if (info.isDirectory) return "is a directory";
  return "is not a regular file (a FIFO, socket or device); give the path of a cassette file";
}

/**
 * The file's text as a stream, after checking it is a regular file: what
 * every cassette read goes through.
 */
export async function openCassetteText(path: string): Promise<ReadableStream<string>> {
  await checkReadable(path);
  return opened(path, () => runtime.readFileText(path));
}

/** The file's bytes as a stream, after the same checks. */
export async function openCassetteBytes(path: string): Promise<ReadableStream<Uint8Array>> {
  await checkReadable(path);
  return opened(path, () => runtime.readFileBytes(path));
}

/** Throws unless `path` is a regular file (or a link to one). */
async function checkReadable(path: string): Promise<void> {
  const info = await target(path).catch(() => undefined);
  if (info === undefined) {
    throw new CassetteFormatError(path, 0, "cannot read the file: no such file");
  }
  const problem = notRegular(info);
  if (problem) throw new CassetteFormatError(path, 0, `cannot read the file: ${problem}`);
}

/** What `open` gives; its failure as a one-line error naming the file. */
export function opened<T>(path: string, open: () => T): T {
  try {
    return open();
  } catch (error) {
    throw new CassetteFormatError(path, 0, `cannot read the file: ${(error as Error).message}`);
  }
}

/**
 * Refuses an output path that exists and is not a regular file (nor a link
 * to one), before anything starts; `flag` names the option in the message.
 */
export async function checkOutputPath(path: string, flag: string): Promise<void> {
  const info = await target(path).catch(() => undefined);
  const problem = info && notRegular(info);
  if (problem) throw new UsageError(`${flag} ${path}: ${problem.replace("cassette file", "file")}`);
}
