/**
 * The append-only cassette writer. Each entry is one synchronous write of one
 * complete line, so a recorder killed with SIGKILL leaves every frame it had
 * forwarded readable, and at worst a torn last line.
 *
 * @module
 */
import { CassetteError } from "../errors.ts";
import { runtime } from "../runtime/mod.ts";
import type { AppendFile } from "../runtime/mod.ts";
import { pendingPath } from "./format.ts";
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
   * Write to `<path>.partial` and rename over `path` on close, so an old
   * cassette survives until the new one is complete. Default: only when
   * `path` already exists.
   */
  aside?: boolean;
  /** Append to an existing cassette instead of replacing it (its header stays). */
  append?: boolean;
  /** Allow `path` to be a symbolic link. */
  followSymlink?: boolean;
}

/** Writes a cassette line by line. */
export class CassetteWriter {
  #file: AppendFile;
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

  private constructor(
    readonly path: string,
    readonly writingPath: string,
    file: AppendFile,
    options: CassetteWriterOptions,
  ) {
    this.#file = file;
    this.#fallback = options.fallbackHeader;
    if (options.append) {
      this.#header = options.header;
    } else if (options.header) {
      this.#header = options.header;
      this.#writeLine(options.header);
    } else {
      this.#pending = [];
      this.#pendingFile = runtime.openAppend(pendingPath(writingPath), { truncate: true });
    }
  }

  /** Opens a writer on `path`. */
  static async open(path: string, options: CassetteWriterOptions = {}): Promise<CassetteWriter> {
    let existing = await runtime.stat(path);
    if (existing?.isSymlink && !options.followSymlink) {
      throw new CassetteError(
        `Refusing to write the cassette ${path}: it is a symbolic link (use --force to write through it)`,
      );
    }
    if (existing?.isSymlink) {
      // Through the link: the write-aside file sits beside the target and is
      // renamed over it, rather than replacing the link with a plain file.
      const target = await runtime.realPath(path).catch(() => undefined);
      if (target !== undefined) {
        path = target;
        existing = await runtime.stat(path);
      }
    }
    if (existing?.isDirectory) {
      throw new CassetteError(`Cannot write the cassette ${path}: it is a directory`);
    }
    const aside = !options.append && (options.aside ?? existing !== undefined);
    const writingPath = aside ? `${path}.partial` : path;
    let file: AppendFile;
    try {
      file = runtime.openAppend(writingPath, { truncate: !options.append });
    } catch (error) {
      throw new CassetteError(`Cannot write the cassette ${path}: ${(error as Error).message}`);
    }
    return new CassetteWriter(path, writingPath, file, options);
  }

  /** The header, once known. */
  get header(): CassetteHeader | undefined {
    return this.#header;
  }

  /** True while entries wait for a header. */
  get deferred(): boolean {
    return this.#pending !== undefined;
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
    this.#dropPendingFile();
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
      this.#pendingFile?.write(encoder.encode(line));
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
    this.#file.write(encoder.encode(text));
  }

  /** Flushes a still-deferred header, closes the file and renames it into place. */
  async close(): Promise<void> {
    if (this.#closed) return;
    if (this.#pending && this.#fallback) this.setHeader(this.#fallback);
    this.#dropPendingFile();
    this.#closed = true;
    this.#file.close();
    if (this.writingPath !== this.path) await runtime.rename(this.writingPath, this.path);
  }

  /** Closes without renaming, removing an aside file: the old cassette stays. */
  async abandon(): Promise<void> {
    if (this.#closed) return;
    this.#dropPendingFile();
    if (this.#pending !== undefined) await runtime.remove(pendingPath(this.writingPath));
    this.#closed = true;
    this.#file.close();
    if (this.writingPath !== this.path) await runtime.remove(this.writingPath);
  }

  #writeLine(value: CassetteHeader | Entry) {
    this.#file.write(encoder.encode(lineOf(value) + "\n"));
  }
}

/** A header or an entry as its line; a message entry keeps its frame text. */
function lineOf(value: CassetteHeader | Entry): string {
  return "type" in value ? entryText(value) : JSON.stringify(value);
}
