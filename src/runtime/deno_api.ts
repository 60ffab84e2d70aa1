/**
 * The slice of the `Deno` namespace the Deno runtime uses, declared so that
 * tsc builds the npm package without Deno's types, and Deno's stdio as the
 * streams the rest of the code reads and writes.
 *
 * @module
 */
import { writableWithWriteNow } from "./immediate.ts";

/** The slice of the `Deno` namespace used here (declared, so tsc can build without Deno's types). */
export interface DenoFile {
  read(buffer: Uint8Array): Promise<number | null>;
  readSync(buffer: Uint8Array): number | null;
  seekSync(offset: number, whence: number): number;
  writeSync(bytes: Uint8Array): number;
  statSync(): DenoFileInfo;
  truncateSync(length: number): void;
  close(): void;
  readable: ReadableStream<Uint8Array>;
}
/** A child process as `Deno.Command#spawn` returns it. */
export interface DenoChild {
  pid: number;
  stdin: WritableStream<Uint8Array>;
  stdout: ReadableStream<Uint8Array>;
  stderr: ReadableStream<Uint8Array>;
  status: Promise<{ code: number; signal: string | null }>;
  kill(signal?: string): void;
}
/** What `Deno.lstat` tells. */
export interface DenoFileInfo {
  isFile: boolean;
  isDirectory: boolean;
  isSymlink: boolean;
  size: number;
  mtime: Date | null;
  /** The inode and device (null on Windows). */
  ino: number | null;
  dev: number;
}
/** The `Deno` namespace, as far as this runtime uses it. */
export interface DenoApi {
  args: string[];
  pid: number;
  build: { os: string; standalone?: boolean };
  stdin: {
    read(buffer: Uint8Array): Promise<number | null>;
    readSync(buffer: Uint8Array): number | null;
    close(): void;
  };
  stdout: { writeSync(bytes: Uint8Array): number; close(): void };
  stderr: { writable: WritableStream<Uint8Array>; writeSync(bytes: Uint8Array): number };
  env: { get(name: string): string | undefined; toObject(): Record<string, string> };
  cwd(): string;
  exit(code: number): never;
  execPath(): string;
  hostname(): string;
  addSignalListener(signal: string, handler: () => void): void;
  removeSignalListener(signal: string, handler: () => void): void;
  Command: new (command: string, options: {
    args: string[];
    cwd?: string;
    env?: Record<string, string>;
    stdin: "piped";
    stdout: "piped";
    stderr: "inherit" | "null" | "piped";
  }) => { spawn(): DenoChild };
  open(path: string, options?: { read?: boolean }): Promise<DenoFile>;
  openSync(
    path: string,
    options: {
      read?: boolean;
      write?: boolean;
      create?: boolean;
      append?: boolean;
      truncate?: boolean;
      createNew?: boolean;
    },
  ): DenoFile;
  readDirSync(path: string): Iterable<{ name: string }>;
  readLinkSync(path: string): string;
  readTextFile(path: string): Promise<string>;
  rename(from: string, to: string): Promise<void>;
  realPath(path: string): Promise<string>;
  remove(path: string, options: { recursive: boolean }): Promise<void>;
  removeSync(path: string, options: { recursive: boolean }): void;
  lstat(path: string): Promise<DenoFileInfo>;
  lstatSync(path: string): DenoFileInfo;
  statSync(path: string): DenoFileInfo;
  kill(pid: number, signal: string): void;
  mkdir(path: string, options: { recursive: boolean }): Promise<void>;
  readDir(path: string): AsyncIterable<{ name: string }>;
  makeTempDir(options: { prefix: string }): Promise<string>;
}

/** The `Deno` global, typed by the declarations above. */
export const Deno = (globalThis as unknown as { Deno: DenoApi }).Deno;
/** One encoder for the whole runtime. */
export const encoder = new TextEncoder();

/** Writes all of `bytes`: one `writeSync` may take only part of them. */
export function writeAllSync(
  file: { writeSync(bytes: Uint8Array): number },
  bytes: Uint8Array,
): void {
  let offset = 0;
  while (offset < bytes.length) offset += file.writeSync(bytes.subarray(offset));
}

/**
 * A stream over stdout that writes each chunk synchronously. `Deno.stdout.writable`
 * goes through an async op and the reactor, which cost about 27 µs per
 * answered request in `scripts/bench.ts` (175 vs 147 µs p50 for the same
 * responder); a synchronous write is what Node does for pipes on Linux too. A
 * client that stops reading blocks the write, as it would a Node server.
 */
export function syncWritable(
  file: { writeSync(bytes: Uint8Array): number; close(): void },
): WritableStream<Uint8Array> {
  return writableWithWriteNow((bytes) => writeAllSync(file, bytes), { close: () => file.close() });
}
