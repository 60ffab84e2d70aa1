/**
 * Streams a cassette from disk, validating each line as it goes. Files of
 * other record/replay tools are converted on the fly by ./import.ts.
 *
 * @module
 */
import { CassetteFormatError } from "../errors/errors.ts";
import { runtime } from "../runtime/mod.ts";
import { openCassetteHead, openCassetteHeadBytes, opened, readFailure, textHead } from "./open.ts";
import type { CassetteHead } from "./open.ts";
import { FORMAT_NAME, pendingPath } from "./format.ts";
import type { CassetteHeader, Entry } from "./format.ts";
import { FrameStore } from "./frame_store.ts";
import { checkHeader, entryOfLine } from "./entry_check.ts";
import type { LineBytes } from "./entry_check.ts";
import { byteLines, textLines } from "./file_lines.ts";
import type { LineBatch } from "./byte_lines.ts";

export { lineBatches } from "./file_lines.ts";

/** An entry together with the line it came from. */
export type LocatedEntry = Entry & { line: number };

/** A cassette read into memory. */
export interface Cassette {
  path: string;
  header: CassetteHeader;
  entries: LocatedEntry[];
  /** A last line cut short by a crash: reported, not fatal. */
  torn?: { line: number; text: string };
  /** Set when the file was converted from another tool's format. */
  importedFrom?: string;
  /** Line 1 as it is in the file (reports name their cassette by its hash). */
  headerText?: string;
}

/** What {@linkcode readCassetteLines} yields. */
export type CassetteLine =
  | { kind: "header"; line: number; header: CassetteHeader; text: string }
  | { kind: "entry"; line: number; entry: Entry }
  | { kind: "torn"; line: number; text: string };

function isOurHeaderLine(text: string): boolean {
  return text.includes(`"${FORMAT_NAME}"`) && text.includes('"format"');
}

/**
 * Whether the head of a file is one of ours: its first non-blank line is
 * our header. Anything else (another tool's file, YAML, random bytes) goes
 * to the converters, before a single line is gathered: a file with no
 * newline for hundreds of megabytes must not become one string first. A
 * blank head is left to the line reader, which says what is wrong.
 */
function isOurs(head: string): boolean {
  // Indexes, not trimmed copies: the head may be a whole mebibyte.
  const start = head.search(/[^\s\uFEFF]/);
  if (start === -1) return true;
  const end = head.indexOf("\n", start);
  return head[start] === "{" && isOurHeaderLine(head.slice(start, end === -1 ? head.length : end));
}

/**
 * Yields the header and entries of one of our cassettes, line by line,
 * without loading the file as one string.
 */
export async function* readCassetteLines(path: string): AsyncGenerator<CassetteLine> {
  const head = await openCassetteHead(path);
  for await (const batch of readLines(path, (end) => textLines(head, end))) yield* batch;
}

/**
 * The most lines in one batch of {@linkcode readLines}: a streaming replay
 * hands the event loop back between batches, and a whole mebibyte chunk of
 * lines, parsed before V8 has optimised the parser, kept a client's first
 * request waiting tens of milliseconds.
 */
const BATCH_LINES = 256;

/** The first batch is smaller still: it is read before replay starts serving. */
const FIRST_BATCH_LINES = 32;

/**
 * The header and entries, up to {@linkcode BATCH_LINES} at a time: one async
 * step per batch rather than per line, which cost a small cassette's load at
 * replay's start-up about 1.5 ms more.
 */
async function* readLines(
  path: string,
  source: (onUnterminated: (text: string) => void) => AsyncGenerator<LineBatch>,
  everyText = false,
  onDisk = false,
): AsyncGenerator<CassetteLine[]> {
  let unterminated: string | undefined;
  const batches = source((text) => (unterminated = text));
  let lineNumber = 0;
  let pendingTorn: { line: number; text: string; error: string } | undefined;
  const bytes: LineBytes | undefined = onDisk ? { start: 0, end: 0 } : undefined;
  try {
    for await (const batch of batches) {
      let items: CassetteLine[] = [];
      for (let index = 0; index < batch.texts.length; index++) {
        const text = batch.texts[index];
        if (bytes) {
          bytes.start = batch.starts[index];
          bytes.end = batch.ends[index];
        }
        if (items.length >= (lineNumber <= BATCH_LINES ? FIRST_BATCH_LINES : BATCH_LINES)) {
          yield items;
          items = [];
        }
        lineNumber++;
        if (pendingTorn) throw new CassetteFormatError(path, pendingTorn.line, pendingTorn.error);
        if (text.trim() === "") continue;
        let value: unknown;
        try {
          value = JSON.parse(text);
        } catch (error) {
          const problem = `not valid JSON (${(error as Error).message})`;
          // Only the very last, unterminated line may be torn; hold the verdict.
          if (text === unterminated) {
            pendingTorn = { line: lineNumber, text, error: problem };
            continue;
          }
          throw new CassetteFormatError(path, lineNumber, problem);
        }
        if (lineNumber === 1) {
          items.push({ kind: "header", line: 1, header: checkHeader(path, value), text });
        } else {
          items.push({
            kind: "entry",
            line: lineNumber,
            entry: entryOfLine(path, lineNumber, value, text, everyText, bytes),
          });
        }
      }
      if (items.length > 0) yield items;
    }
  } catch (error) {
    throw readFailure(path, lineNumber, error);
  }
  if (pendingTorn) {
    if (pendingTorn.line === 1) throw new CassetteFormatError(path, 1, pendingTorn.error);
    yield [{ kind: "torn", line: pendingTorn.line, text: pendingTorn.text }];
  }
  if (lineNumber === 0) throw await emptyFileError(path);
}

/** The error for a file with no lines, naming where a stopped recorder left its frames. */
async function emptyFileError(path: string): Promise<CassetteFormatError> {
  const held = await runtime.stat(pendingPath(path)).catch(() => undefined);
  return new CassetteFormatError(
    path,
    1,
    held?.isFile
      ? `the file is empty: its recorder stopped before the era was known; the frames it held are in ${
        pendingPath(path)
      }`
      : "the file is empty (expected a cassette header)",
  );
}

/** A cassette being read: its header at once, its entries as they come. */
export interface CassetteStream {
  path: string;
  header: CassetteHeader;
  /** Line 1 as it is in the file. */
  headerText?: string;
  /** Set when the file was converted from another tool's format. */
  importedFrom?: string;
  /** The entries, a batch at a time, to the end of the file (read once). */
  batches: AsyncIterable<LocatedEntry[]>;
  /** Set when the batches have ended on a last line cut short by a crash. */
  torn?: { line: number; text: string };
  /** Reads placed frames back, with `framesOnDisk` (the caller closes it). */
  store?: FrameStore;
}

/**
 * Opens a cassette for reading as it goes: resolves once its header is read
 * (a bad header, or a file that is not a cassette, rejects here), and its
 * entries come through `batches` as the file is read; a bad line further on
 * throws from there. Files of other tools are converted whole first (see
 * {@linkcode loadCassette}).
 */
export async function streamCassette(
  path: string,
  options: {
    /** Keep every message's frame text, not only those that differ from the serialised message. */
    everyFrameText?: boolean;
    /**
     * Leave message frames in the file (./frame_store.ts): each message
     * entry is placed, and `store` reads its frame back. A frame that
     * cannot be placed keeps its text as with `everyFrameText`.
     */
    framesOnDisk?: boolean;
  } = {},
): Promise<CassetteStream> {
  const onDisk = options.framesOnDisk === true;
  // One open, one read of the head: the head tells the format, then its reader takes over.
  const bytes = onDisk ? await openCassetteHeadBytes(path) : undefined;
  const text = bytes ? undefined : await openCassetteHead(path);
  if (!isOurs((bytes ?? text)!.text)) return await foreign(path, text ?? textHead(bytes!));
  const lines = readLines(
    path,
    (end) => bytes ? byteLines(bytes, end) : textLines(text!, end),
    onDisk || options.everyFrameText,
    onDisk,
  );
  const first = await lines.next();
  const head = first.done ? undefined : first.value[0];
  if (head?.kind !== "header") {
    await lines.return(undefined); // lets the file go
    throw new CassetteFormatError(path, 1, "expected a header");
  }
  const stream: CassetteStream = {
    path,
    header: head.header,
    headerText: head.text,
    batches: entryBatches(first.value.slice(1), lines, (torn) => (stream.torn = torn)),
  };
  if (onDisk) {
    stream.store = new FrameStore(
      path,
      opened(path, () => runtime.openRandomReads(path)),
    );
  }
  return stream;
}

/**
 * Another tool's file, converted whole from the head already read. Such
 * files are rare: their converters load only when one comes. Built, not
 * literal: a literal import() has Deno prepare every converter at start-up.
 */
async function foreign(path: string, head: CassetteHead<string>): Promise<CassetteStream> {
  const { importForeign } = await import("./" + "import.ts") as typeof import("./import.ts");
  const imported = await importForeign(path, head);
  return { ...imported, batches: oneBatch(imported.entries) };
}

async function* oneBatch(entries: LocatedEntry[]): AsyncGenerator<LocatedEntry[]> {
  yield entries;
}

async function* entryBatches(
  firstItems: CassetteLine[],
  rest: AsyncGenerator<CassetteLine[]>,
  onTorn: (torn: { line: number; text: string }) => void,
): AsyncGenerator<LocatedEntry[]> {
  const located = (items: CassetteLine[]) => {
    const entries: LocatedEntry[] = [];
    for (const item of items) {
      if (item.kind === "entry") entries.push(Object.assign(item.entry, { line: item.line }));
      else if (item.kind === "torn") onTorn({ line: item.line, text: item.text });
    }
    return entries;
  };
  yield located(firstItems);
  for await (const items of rest) yield located(items);
}

/**
 * Up to this size a replay reads the file in one go: streaming it buys
 * nothing, and a replay of a ten-call cassette answered about 2 ms later
 * streamed than read whole (a second read of the file and the engine's
 * hand-over).
 */
const ONE_READ = 16 << 10;

/**
 * From this size up a streaming replay leaves frames in the file
 * (./frame_store.ts); below it, it holds each frame's text. Reading a frame
 * back and confirming a key from the key arena cost each replayed call of a
 * 400-call cassette 10-20 µs more in a fresh process (stdio p50 1.16-1.20x
 * the floor against 1.08-1.17x), while holding a mebibyte of cassette costs
 * a few mebibytes.
 */
const FRAMES_ON_DISK_FROM = 1 << 20;

/**
 * How a replay reads `path`, from one look at its size: `oneRead` for a
 * file read whole (see above), and the options to stream it with: frames
 * left in the file when it is large, else each frame's text held.
 */
export async function replayReading(
  path: string,
): Promise<{ oneRead: boolean; stream: { framesOnDisk?: boolean; everyFrameText?: boolean } }> {
  const info = await runtime.stat(path).catch(() => undefined);
  const oneRead = info !== undefined && info.isFile && info.size <= ONE_READ;
  return info !== undefined && info.size < FRAMES_ON_DISK_FROM
    ? { oneRead, stream: { everyFrameText: true } }
    : { oneRead, stream: { framesOnDisk: true } };
}

/**
 * Loads a whole cassette. Files written by other tools (the Python and
 * TypeScript mcp-cassette, mcp-replay, mcp-recorder, mcp-vcr, mcp-rec) are
 * converted to ours; the first chunk of the file tells which.
 *
 * @example
 * ```ts
 * const cassette = await loadCassette("tests/cassettes/weather.cassette.jsonl");
 * console.log(cassette.header.transport, cassette.entries.length);
 * ```
 */
export async function loadCassette(path: string): Promise<Cassette> {
  const stream = await streamCassette(path);
  const entries: LocatedEntry[] = [];
  for await (const batch of stream.batches) {
    for (const entry of batch) entries.push(entry);
  }
  const { header, headerText, importedFrom, torn } = stream;
  return importedFrom === undefined
    ? { path, header, entries, torn, headerText }
    : { path, header, entries, torn, headerText, importedFrom };
}
