/**
 * Every file mcp-cassette writes goes through here. Cassettes arrive in
 * pull requests, and a symbolic link can arrive beside one at the name of
 * any file we write, so no write may follow a link:
 *
 * - a new file is created exclusively (`O_EXCL`, which follows nothing);
 * - a file replacing another is written to a side file with an
 *   unpredictable name in the target's folder, created exclusively, and
 *   renamed over the target only if the target is still a regular file or
 *   absent (a rename replaces a link, never what it points to);
 * - a file appended to is opened without following a link;
 * - a target that is itself a link is refused with one line unless the
 *   caller passes `force`, which then replaces the link with the new file;
 * - a write that fails removes its side file (or the file it created), and
 *   says which file and why in one line ({@linkcode WriteError}, exit 9).
 *
 * @module
 */
import { CassetteError, WriteError } from "../errors/errors.ts";
import { runtime } from "../runtime/mod.ts";
import type { AppendFile, FileInfo } from "../runtime/mod.ts";

/** How a target may be written. */
export interface TargetOptions {
  /** What the file is, for messages: `the cassette`, `the report` (default `the file`). */
  what?: string;
  /** Replace a symbolic link at the target with the new file (never writing through it). */
  force?: boolean;
}

const encoder = new TextEncoder();

/** `the cassette c.jsonl`: how messages name the file. */
function named(path: string, options: TargetOptions): string {
  return `${options.what ?? "the file"} ${path}`;
}

/**
 * What is at `path` (not following a link), after refusing what may not be
 * replaced: a directory, a FIFO or device, and a link unless `force`.
 */
export async function checkTarget(
  path: string,
  options: TargetOptions = {},
): Promise<FileInfo | undefined> {
  const info = await runtime.stat(path);
  if (info === undefined || info.isFile) return info;
  const refuse = (why: string) =>
    new CassetteError(`Refusing to write ${named(path, options)}: ${why}`);
  if (info.isSymlink) {
    if (options.force) return info;
    throw refuse("it is a symbolic link");
  }
  if (info.isDirectory) throw refuse("it is a directory");
  throw refuse("it is not a regular file (a FIFO, socket or device)");
}

/** A side file's name: the target's, an unpredictable part, and `.partial`. */
export function sidePath(target: string): string {
  // Web Crypto (Deno, Node >= 19, Bun): 64 bits nobody can guess ahead.
  const uuid = (globalThis as unknown as { crypto: { randomUUID(): string } }).crypto.randomUUID();
  return `${target}.${uuid.replace(/-/g, "").slice(0, 16)}.partial`;
}

/** The cause of a failed file operation, in words, without the runtime's decoration. */
export function causeOf(error: unknown): string {
  const code = (error as { code?: string }).code;
  const words: Record<string, string> = {
    ENOSPC: "no space left on device",
    EDQUOT: "disk quota exceeded",
    EROFS: "read-only file system",
    EACCES: "permission denied",
    EPERM: "operation not permitted",
    EIO: "input/output error",
    EFBIG: "file too large",
  };
  if (code !== undefined && words[code]) return words[code];
  const message = error instanceof Error ? error.message.split("\n")[0] : String(error);
  return message.replace(/ \(os error \d+\)$/, "").replace(/^E[A-Z]+: /, "");
}

/** The one-line error for a write to `path` that failed. */
export function writeError(path: string, error: unknown, what = "the file"): WriteError {
  if (error instanceof CassetteError) return error;
  return new WriteError(`Cannot write ${what} ${path}: ${causeOf(error)}`);
}

/** The error for an open that met a link (`ELOOP`), else {@linkcode writeError}. */
function openError(path: string, error: unknown, what: string): CassetteError {
  if ((error as { code?: string }).code === "ELOOP") {
    return new CassetteError(`Refusing to write ${what} ${path}: it is a symbolic link`);
  }
  return writeError(path, error, what);
}

/**
 * Why a file could not be created at `path`. `ENOENT` means a missing folder
 * only where the folder is indeed missing: `/proc` and the like exist and
 * still refuse new files with it.
 */
async function createError(path: string, error: unknown, what: string): Promise<CassetteError> {
  if ((error as { code?: string }).code !== "ENOENT") return openError(path, error, what);
  const folder = path.includes("/") ? path.slice(0, path.lastIndexOf("/")) || "/" : ".";
  const there = await runtime.stat(folder).catch(() => undefined);
  return new WriteError(
    `Cannot create ${what} ${path}: ${
      there ? `the folder ${folder} does not take new files` : `its folder ${folder} does not exist`
    }`,
  );
}

/**
 * Creates `path` exclusively and writes `text` to it; resolves false when
 * anything (a link too) is already there. A write that fails removes the
 * file it created: no empty or half file is left (claims rely on it).
 */
export async function createExclusive(
  path: string,
  text: string,
  what = "the file",
  mode?: number,
): Promise<boolean> {
  let file: AppendFile;
  try {
    file = runtime.openAppend(path, { createNew: true, mode });
  } catch (error) {
    if ((error as { code?: string }).code === "EEXIST") return false;
    throw await createError(path, error, what);
  }
  try {
    file.write(encoder.encode(text));
  } catch (error) {
    file.close();
    await runtime.remove(path).catch(() => {});
    throw writeError(path, error, what);
  }
  file.close();
  return true;
}

/**
 * Opens a new file at `path` to append to, created exclusively: the caller
 * removes it if it fails (see {@linkcode SideFile.discard}).
 */
export async function createNew(path: string, what = "the file"): Promise<AppendFile> {
  try {
    return runtime.openAppend(path, { createNew: true });
  } catch (error) {
    if ((error as { code?: string }).code === "EEXIST") {
      throw new CassetteError(
        `Refusing to write ${what} ${path}: something appeared there while it was being opened`,
      );
    }
    throw await createError(path, error, what);
  }
}

/** Opens an existing (or new) file to append to, never through a symbolic link. */
export function openToAppend(path: string, what = "the file"): AppendFile {
  try {
    return runtime.openAppend(path);
  } catch (error) {
    throw openError(path, error, what);
  }
}

/**
 * A file written beside its target and renamed over it once whole, so a
 * reader never sees half a file and a failure leaves the old one as it was.
 */
export class SideFile {
  private constructor(
    readonly target: string,
    readonly path: string,
    readonly file: AppendFile,
    private readonly options: TargetOptions,
  ) {}

  /** Creates the side file of `target` (which the caller has checked). */
  static async open(target: string, options: TargetOptions = {}): Promise<SideFile> {
    const path = sidePath(target);
    return new SideFile(target, path, await createNew(path, options.what), options);
  }

  /** Writes `bytes` whole; a failure throws a {@linkcode WriteError} naming the target. */
  write(bytes: Uint8Array): void {
    try {
      this.file.write(bytes);
    } catch (error) {
      throw writeError(this.target, error, this.options.what);
    }
  }

  /**
   * Renames the side file over the target, checking the target again first:
   * a link or a directory that appeared meanwhile is refused, not replaced
   * (unless `force`, for a link).
   */
  async commit(): Promise<void> {
    this.file.close();
    try {
      await checkTarget(this.target, this.options);
      await runtime.rename(this.path, this.target);
    } catch (error) {
      await runtime.remove(this.path).catch(() => {});
      throw writeError(this.target, error, this.options.what);
    }
  }

  /** Closes and removes the side file: the target stays as it was. */
  async discard(): Promise<void> {
    try {
      this.file.close();
    } catch {
      // Closed already.
    }
    await runtime.remove(this.path).catch(() => {});
  }
}

/**
 * Writes `text` (or bytes, kept as they are) as the whole of `path`: through
 * a side file renamed over it, refusing a link (unless `force`), a directory
 * or a device.
 */
export async function writeFileSafely(
  path: string,
  text: string | Uint8Array,
  options: TargetOptions = {},
): Promise<void> {
  await checkTarget(path, options);
  const side = await SideFile.open(path, options);
  try {
    side.write(typeof text === "string" ? encoder.encode(text) : text);
  } catch (error) {
    await side.discard();
    throw error;
  }
  await side.commit();
}
