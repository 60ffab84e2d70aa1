/**
 * Opening cassette paths: only regular files (or links to one) are read or
 * written. A FIFO blocks its reader until some writer comes, a character
 * device such as /dev/zero never ends, and `rename` over a FIFO given as
 * `-o` would silently replace it; each is refused up front with a one-line
 * error instead.
 *
 * @module
 */
import { CassetteFormatError, UsageError } from "../errors/errors.ts";
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

/** The start of a cassette file, read once, and the reader for the rest. */
export interface CassetteHead<T> {
  /** The chunks read so far, in order: line 1 is whole among them unless the file is short. */
  chunks: T[];
  /** Their text: what the format is told from. */
  text: string;
  /** Where the rest of the file comes from (cancel it when done). */
  rest: ReadableStreamDefaultReader<T>;
}

/** How far the head is read at most when line 1 has no end yet. */
const HEAD_LIMIT = 1 << 20;

/** Whether `text` holds all of its first non-blank line. */
function lineOneEnds(text: string): boolean {
  const start = text.search(/[^\s\uFEFF]/);
  return start !== -1 && text.indexOf("\n", start) !== -1;
}

/**
 * Opens a cassette file once and reads its head as text: the first chunk
 * (16 KiB), or on to the end of line 1 when it is longer, up to 1 MiB. The
 * head tells the format; the reader for that format takes the head and the
 * rest.
 */
export async function openCassetteHead(path: string): Promise<CassetteHead<string>> {
  return await readHead(path, (await openCassetteText(path)).getReader(), (chunk) => chunk);
}

/** {@linkcode openCassetteHead} as bytes, for a reader that needs each line's place in the file. */
export async function openCassetteHeadBytes(path: string): Promise<CassetteHead<Uint8Array>> {
  return await readHead(path, (await openCassetteBytes(path)).getReader(), textOfBytes());
}

/** A decoder of consecutive byte chunks (a character may straddle two). */
function textOfBytes(): (chunk: Uint8Array) => string {
  const decoder = new TextDecoder();
  return (chunk) => decoder.decode(chunk, { stream: true });
}

async function readHead<T>(
  path: string,
  reader: ReadableStreamDefaultReader<T>,
  textOf: (chunk: T) => string,
): Promise<CassetteHead<T>> {
  const head: CassetteHead<T> = { chunks: [], text: "", rest: reader };
  try {
    while (!lineOneEnds(head.text) && head.text.length < HEAD_LIMIT) {
      const { done, value } = await reader.read();
      if (done) break;
      head.chunks.push(value);
      head.text += textOf(value);
    }
  } catch (error) {
    reader.cancel().catch(() => {});
    throw readFailure(path, 0, error);
  }
  return head;
}

/**
 * A byte head as text: its chunks decoded, and the rest decoded as it comes
 * (for a reader of text given a file opened for bytes).
 */
export function textHead(head: CassetteHead<Uint8Array>): CassetteHead<string> {
  const decoder = new TextDecoder();
  const text = head.chunks.map((chunk) => decoder.decode(chunk, { stream: true })).join("");
  const rest = new ReadableStream<string>({
    async pull(controller) {
      const { done, value } = await head.rest.read();
      if (!done) return controller.enqueue(decoder.decode(value, { stream: true }));
      const tail = decoder.decode();
      if (tail !== "") controller.enqueue(tail);
      controller.close();
    },
    cancel: (reason) => head.rest.cancel(reason),
  }, { highWaterMark: 0 });
  return { chunks: [text], text, rest: rest.getReader() };
}

/** The head's chunks, then the rest of the file's; the reader is let go at the end. */
export async function* headAndRest<T>(head: CassetteHead<T>): AsyncGenerator<T> {
  try {
    yield* head.chunks;
    while (true) {
      const { done, value } = await head.rest.read();
      if (done) return;
      yield value;
    }
  } finally {
    head.rest.cancel().catch(() => {});
  }
}

/** A failure reading line `line` of `path` as the one-line error to throw. */
export function readFailure(path: string, line: number, error: unknown): Error {
  if (error instanceof CassetteFormatError) return error;
  const code = (error as { code?: string }).code;
  const problem = code === "ENOENT"
    ? "no such file"
    : code === "EISDIR"
    ? "is a directory"
    : (error as Error).message;
  return new CassetteFormatError(path, line, `cannot read the file: ${problem}`);
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
