/**
 * The append-only cassette writer. Each entry is one synchronous write of one
 * complete line, so a recorder killed with SIGKILL leaves every frame it had
 * forwarded readable, and at worst a torn last line. A write that fails (a
 * full disk) is cut back to the last whole line, and the writer stops.
 *
 * @module
 */
import { CassetteError } from "../errors/errors.ts";
import type { WriteError } from "../errors/errors.ts";
import { checkTarget, createNew, openToAppend, SideFile, writeError } from "../files/safe_write.ts";
import { runtime } from "../runtime/mod.ts";
import type { AppendFile } from "../runtime/mod.ts";
import { FORMAT_NAME, pendingPath } from "./format.ts";
import { entryText } from "./frame_text.ts";
import type { CassetteHeader, Entry } from "./format.ts";

const encoder = new TextEncoder();

/** Options for {@linkcode CassetteWriter.open}. */
export interface CassetteWriterOptions {
  /**
   * The header, written at once. Omit it for deferred mode: entries are held
   * in memory until {@linkcode CassetteWriter.setHeader} (the HTTP recorder
   * learns the era only from the first exchange that succeeds).
   */
  header?: CassetteHeader;
  /** The header to use if the writer closes while still deferred. */
  fallbackHeader?: CassetteHeader;
  /**
   * Write to a side file and rename it over `path` on close, so an old
   * cassette survives until the new one is complete. Default: only when
   * `path` already exists.
   */
  aside?: boolean;
  /** Append to an existing cassette instead of replacing it (its header stays). */
  append?: boolean;
  /** Replace a symbolic link at `path` with the new cassette (never writing through it). */
  force?: boolean;
  /** Replace `path` even if it is not a cassette (`import --force`); refused otherwise. */
  replaceAny?: boolean;
  /**
   * Called once, with the error, when a write fails (a full disk): the
   * writer then writes nothing more, and {@linkcode CassetteWriter.close}
   * throws the error after keeping what is whole.
   */
  onFailure?: (error: WriteError) => void;
}

/** Writes a cassette line by line. */
export class CassetteWriter {
  #file: AppendFile;
  #side: SideFile | undefined;
  #pending: Entry[] | undefined;
  /**
   * While the header is deferred, held entries are also appended to
   * `<cassette>.pending`, one synchronous line each, so that a recorder
   * killed before the era is known still leaves every frame on disk.
   */
  #pendingFile: AppendFile | undefined;
  #header: CassetteHeader | undefined;
  #fallback: CassetteHeader | undefined;
  #closed = false;
  #failure: WriteError | undefined;
  #onFailure: ((error: WriteError) => void) | undefined;
  /** Opened on an existing cassette to append to: never removed. */
  #appending: boolean;

  private constructor(
    readonly path: string,
    readonly writingPath: string,
    file: AppendFile,
    side: SideFile | undefined,
    options: CassetteWriterOptions,
  ) {
    this.#file = file;
    this.#side = side;
    this.#fallback = options.fallbackHeader;
    this.#onFailure = options.onFailure;
    this.#appending = options.append === true;
    if (options.append) this.#header = options.header;
    else if (options.header) {
      this.#header = options.header;
      this.#writeLine(options.header);
    } else this.#pending = [];
  }

  /**
   * Opens a writer on `path`: appending to it, or replacing it through a
   * side file, or creating it (see ../files/safe_write.ts). A header that
   * cannot be written leaves no file behind and throws.
   */
  static async open(path: string, options: CassetteWriterOptions = {}): Promise<CassetteWriter> {
    const existing = await checkTarget(path, { what: "the cassette", force: options.force });
    if (options.append) {
      if (existing?.isSymlink) {
        throw new CassetteError(
          `Refusing to append to the cassette ${path}: it is a symbolic link`,
        );
      }
      const file = openToAppend(path, "the cassette");
      return new CassetteWriter(path, path, file, undefined, options);
    }
    if (existing?.isFile && !options.replaceAny) await refuseForeign(path);
    const aside = options.aside ?? existing !== undefined;
    const side = aside
      ? await SideFile.open(path, { what: "the cassette", force: options.force })
      : undefined;
    const file = side?.file ?? await createNew(path, "the cassette");
    const writer = new CassetteWriter(path, side?.path ?? path, file, side, options);
    if (writer.#pending) await writer.#openPendingFile();
    if (writer.#failure) {
      await writer.abandon();
      throw writer.#failure;
    }
    return writer;
  }

  /** The held entries' side file, made anew: a leftover is replaced, a link refused. */
  async #openPendingFile() {
    const held = pendingPath(this.writingPath);
    const there = await runtime.stat(held);
    if (there?.isSymlink || (there && !there.isFile)) {
      await this.abandon();
      throw new CassetteError(`Refusing to write ${held}: it is not a regular file`);
    }
    if (there) await runtime.remove(held);
    this.#pendingFile = await createNew(held, "the held frames' file");
  }

  /** The header, once known. */
  get header(): CassetteHeader | undefined {
    return this.#header;
  }

  /** True while entries wait for a header. */
  get deferred(): boolean {
    return this.#pending !== undefined;
  }

  /** The write that failed, once one has: nothing more is written. */
  get failure(): WriteError | undefined {
    return this.#failure;
  }

  /**
   * Stops writing because a write elsewhere (another thread's descriptor on
   * the same file) failed: `close` then treats the file as this one's own
   * failure would.
   */
  fail(error: WriteError): void {
    this.#failure ??= error;
  }

  /**
   * Sets the header of a deferred writer and flushes what was held. Once the
   * header is on disk its era is fixed: a different era throws.
   */
  setHeader(header: CassetteHeader): void {
    if (this.#pending === undefined) {
      if (this.#header && (this.#header.era ?? "legacy") !== (header.era ?? "legacy")) {
        throw new CassetteError(
          `Cannot change the era of ${this.path} to ${
            header.era ?? "legacy"
          }: the header already says ${this.#header.era ?? "legacy"}`,
        );
      }
      return;
    }
    const pending = this.#pending;
    this.#pending = undefined;
    this.#header = header;
    this.#writeLine(header);
    for (const entry of pending) this.#writeLine(entry);
    // Held frames that did not reach the cassette stay in the side file.
    if (!this.#failure) this.#dropPendingFile();
  }

  /** Closes the side file; removes it once the held entries are in the cassette. */
  #dropPendingFile() {
    if (!this.#pendingFile) return;
    this.#pendingFile.close();
    this.#pendingFile = undefined;
    if (this.#pending === undefined) runtime.remove(pendingPath(this.writingPath)).catch(() => {});
  }

  /** Appends one entry (held in memory while the header is deferred). */
  append(entry: Entry): void {
    if (this.#closed) return;
    if (this.#pending) {
      // Serialised first: an entry that cannot be is not held either.
      const line = entryText(entry) + "\n";
      this.#pending.push(entry);
      if (this.#pendingFile) this.#write(this.#pendingFile, encoder.encode(line));
    } else this.#writeLine(entry);
  }

  /**
   * Appends entry lines already serialised, each complete with its newline,
   * in one write (the stdio recorder keeps a frame's own text this way). Not
   * for a writer still waiting for its header.
   */
  appendLines(text: string): void {
    if (this.#closed || text === "") return;
    if (this.#pending) throw new Error("appendLines needs the header written first");
    this.#write(this.#file, encoder.encode(text));
  }

  /**
   * Flushes a still-deferred header, closes the file and renames it into
   * place. After a failed write, a side file is dropped (the old cassette
   * stays) and a new file keeps its whole lines (or goes, if it holds
   * none); then the failure is thrown.
   */
  async close(): Promise<void> {
    if (this.#closed) return;
    if (this.#pending && this.#fallback) this.setHeader(this.#fallback);
    if (this.#failure) {
      const empty = this.#side === undefined && this.#header !== undefined &&
        this.#sizeOrZero() === 0;
      if (this.#side || empty) await this.abandon();
      else this.#closeFiles();
      throw this.#failure;
    }
    this.#dropPendingFile();
    this.#closed = true;
    if (this.#side) await this.#side.commit();
    else this.#file.close();
  }

  /**
   * Closes without renaming: a side file is removed and the old cassette
   * stays; a file this writer created is removed (a recording that failed
   * leaves nothing behind). An appended-to cassette keeps what it had.
   */
  async abandon(): Promise<void> {
    if (this.#closed) return;
    const held = this.#pending !== undefined && this.#pendingFile !== undefined;
    this.#closeFiles();
    if (held) await runtime.remove(pendingPath(this.writingPath)).catch(() => {});
    if (this.#side) await this.#side.discard();
    else if (!this.#appending) await runtime.remove(this.path).catch(() => {});
  }

  #closeFiles() {
    this.#closed = true;
    this.#pendingFile?.close();
    this.#pendingFile = undefined;
    this.#file.close();
  }

  #sizeOrZero(): number {
    try {
      return this.#file.size();
    } catch {
      return 0;
    }
  }

  #writeLine(value: CassetteHeader | Entry) {
    this.#write(this.#file, encoder.encode(lineOf(value) + "\n"));
  }

  /**
   * One write; a failure cuts what it left of a line, so the file ends on
   * a whole one, and stops every later write.
   */
  #write(file: AppendFile, bytes: Uint8Array) {
    if (this.#failure) return;
    try {
      file.write(bytes);
    } catch (error) {
      const written = (error as { written?: number }).written ?? 0;
      try {
        if (written > 0) file.truncate(file.size() - written);
      } catch {
        // The reader reports a torn last line if this cut failed too.
      }
      this.#failure = writeError(this.path, error, "the cassette");
      this.#onFailure?.(this.#failure);
    }
  }
}

/**
 * Refuses to replace a file that is not a cassette (`record -o notes.txt`);
 * an empty file is fine (a recording killed at once leaves one).
 */
async function refuseForeign(path: string): Promise<void> {
  const first = await firstLine(path);
  if (first === "" || (first.includes('"format"') && first.includes(`"${FORMAT_NAME}"`))) return;
  throw new CassetteError(
    `Refusing to replace ${path}: it is not a cassette (remove it first, or write elsewhere)`,
  );
}

/** The file's first line, or as much of it as the first chunk holds. */
async function firstLine(path: string): Promise<string> {
  const reader = runtime.readFileText(path).getReader();
  try {
    const { value } = await reader.read();
    const text = value ?? "";
    const end = text.indexOf("\n");
    return (end === -1 ? text : text.slice(0, end)).replace(/^\uFEFF/, "").trim();
  } finally {
    await reader.cancel().catch(() => {});
  }
}

/** A header or an entry as its line; a message entry keeps its frame text. */
function lineOf(value: CassetteHeader | Entry): string {
  return "type" in value ? entryText(value) : JSON.stringify(value);
}
