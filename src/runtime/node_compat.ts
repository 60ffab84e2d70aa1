/**
 * The runtime implementation built on `node:` modules, which Deno, Node and
 * Bun all provide with the same behaviour (measured; see docs/design notes).
 *
 * @module
 */
import { spawn as nodeSpawn } from "node:child_process";
import * as fs from "node:fs";
import * as fsp from "node:fs/promises";
import * as os from "node:os";
import * as path from "node:path";
import process from "node:process";
import { Readable, Writable } from "node:stream";
import { fileURLToPath } from "node:url";
import type {
  AppendFile,
  AppendOptions,
  ChildProcess,
  FileInfo,
  PipedChildProcess,
  RandomReads,
  Runtime,
  SpawnOptions,
} from "./types.ts";
import { fileBytes, fileText } from "./file_text.ts";
import { exitRemoval } from "./exit_removal.ts";
import type { FileReads } from "./file_text.ts";
import { RUNTIME_MODULE_URL } from "./module_url.ts";

const SIGNAL_NUMBERS: Record<string, number> = { SIGINT: 2, SIGKILL: 9, SIGTERM: 15, SIGHUP: 1 };

function startChild(
  command: readonly string[],
  options: SpawnOptions,
  stderr: "inherit" | "ignore" | "pipe",
) {
  if (command.length === 0) throw new TypeError("Cannot start a server: the command is empty");
  const child = nodeSpawn(command[0], command.slice(1), {
    cwd: options.cwd,
    env: options.env ? { ...process.env, ...options.env } : process.env,
    stdio: ["pipe", "pipe", stderr],
    windowsHide: true,
  });
  const exited = new Promise<number>((resolve, reject) => {
    child.once("error", (error) => reject(error));
    child.once("exit", (code, signal) => {
      resolve(code ?? 128 + (signal ? SIGNAL_NUMBERS[signal] ?? 1 : 1));
    });
  });
  // A child that closes its stdin early must not crash us with EPIPE.
  child.stdin!.on("error", () => {});
  const base: ChildProcess = {
    get pid() {
      return child.pid ?? -1;
    },
    stdin: Writable.toWeb(child.stdin!) as WritableStream<Uint8Array>,
    stdout: Readable.toWeb(child.stdout!) as unknown as ReadableStream<Uint8Array>,
    exited,
    kill(signal = "SIGTERM") {
      try {
        child.kill(signal);
      } catch {
        // Already gone.
      }
    },
  };
  return { base, child };
}

/** Starts a process whose exit is observed before `spawn` returns a failure. */
function spawn(command: readonly string[], options: SpawnOptions = {}): ChildProcess {
  return startChild(
    command,
    options,
    options.stderr === "pipe" ? "pipe" : options.stderr ?? "inherit",
  ).base;
}

function spawnPiped(command: readonly string[], options: SpawnOptions = {}): PipedChildProcess {
  const { base, child } = startChild(command, options, "pipe");
  return Object.assign(base, {
    stderr: Readable.toWeb(child.stderr!) as unknown as ReadableStream<Uint8Array>,
  });
}

function openAppend(filePath: string, options: AppendOptions = {}): AppendFile {
  // O_NOFOLLOW: a symbolic link at the path fails with ELOOP; O_EXCL follows nothing.
  const { O_APPEND, O_CREAT, O_EXCL, O_NOFOLLOW, O_WRONLY } = fs.constants;
  const fd = fs.openSync(
    filePath,
    O_WRONLY | O_CREAT | O_APPEND | (options.createNew ? O_EXCL : O_NOFOLLOW),
    options.mode ?? 0o666,
  );
  return {
    write(bytes) {
      let written = 0;
      try {
        while (written < bytes.length) written += fs.writeSync(fd, bytes, written);
      } catch (error) {
        throw Object.assign(error as Error, { written });
      }
    },
    size: () => fs.fstatSync(fd).size,
    truncate: (length) => fs.ftruncateSync(fd, length),
    close() {
      fs.closeSync(fd);
    },
  };
}

async function stat(filePath: string): Promise<FileInfo | undefined> {
  try {
    const info = await fsp.lstat(filePath);
    return {
      isFile: info.isFile(),
      isDirectory: info.isDirectory(),
      isSymlink: info.isSymbolicLink(),
      size: info.size,
      mtimeMs: info.mtimeMs,
    };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
}

/** Opens `filePath` for the streams below; the file opens at the first read. */
function opener(filePath: string): () => Promise<FileReads> {
  return async () => {
    const handle = await fsp.open(filePath, "r");
    return {
      read: async (buffer) => {
        const { bytesRead } = await handle.read(buffer, 0, buffer.length, null);
        return bytesRead === 0 ? null : bytesRead;
      },
      close: () => handle.close(),
    };
  };
}

/** The file's text. */
function readFileText(filePath: string): ReadableStream<string> {
  return fileText(opener(filePath));
}

/** The file's bytes. */
function readFileBytes(filePath: string): ReadableStream<Uint8Array> {
  return fileBytes(opener(filePath));
}

/** The file open for reads at any position. */
function openRandomReads(filePath: string): RandomReads {
  const fd = fs.openSync(filePath, "r");
  return {
    readAt(buffer, position) {
      let filled = 0;
      while (filled < buffer.length) {
        const read = fs.readSync(fd, buffer, filled, buffer.length - filled, position + filled);
        if (read === 0) break;
        filled += read;
      }
      return filled;
    },
    close: () => fs.closeSync(fd),
  };
}

/**
 * How to start this CLI again. A compiled binary is its own command. From
 * source or from the npm build, the entry script is cli.ts or cli.js two
 * folders above this file (src/runtime/), run by the same runtime.
 */
function selfCommand(): string[] {
  if (isCompiledBinary()) return [process.execPath];
  const here = new URL(RUNTIME_MODULE_URL);
  const cli = new URL(/\.ts$/.test(here.pathname) ? "../../cli.ts" : "../../cli.js", here);
  // A remote module (deno run jsr:/https:) restarts from the same remote cli.ts;
  // a single-file bundle (no cli beside it) is itself the entry script.
  const entry = cli.protocol !== "file:"
    ? cli.href
    : fs.existsSync(fileURLToPath(cli))
    ? fileURLToPath(cli)
    : fileURLToPath(here);
  if (detectName() === "deno") return [process.execPath, "run", "-A", "--no-check", entry];
  return [process.execPath, entry];
}

/** True in a `deno compile` or `bun build --compile` executable. */
function isCompiledBinary(): boolean {
  const deno = (globalThis as { Deno?: { build?: { standalone?: boolean } } }).Deno;
  if (deno?.build?.standalone) return true;
  const url = decodeURIComponent(RUNTIME_MODULE_URL);
  // Bun embeds its files under /$bunfs/ (B:/~BUN/ on Windows); older Deno under deno-compile-<name>.
  return /\$bunfs|~BUN|deno-compile-/.test(url);
}

function detectName(): Runtime["name"] {
  const g = globalThis as Record<string, unknown>;
  if (g.Deno) return "deno";
  if (g.Bun) return "bun";
  return "node";
}

const lazyStdio: {
  stdin?: ReadableStream<Uint8Array>;
  stdout?: WritableStream<Uint8Array>;
  stderr?: WritableStream<Uint8Array>;
} = {};

/** The runtime as seen through `node:` modules. */
export const nodeCompatRuntime: Runtime = {
  name: detectName(),
  args: process.argv.slice(2),
  // Lazy: converting stdin starts reading it, which would keep every process alive.
  get stdin() {
    return lazyStdio.stdin ??= Readable.toWeb(process.stdin) as unknown as ReadableStream<
      Uint8Array
    >;
  },
  get stdout() {
    return lazyStdio.stdout ??= Writable.toWeb(process.stdout) as WritableStream<Uint8Array>;
  },
  get stderr() {
    return lazyStdio.stderr ??= Writable.toWeb(process.stderr) as WritableStream<Uint8Array>;
  },
  writeStderr(text) {
    try {
      fs.writeSync(2, text);
    } catch {
      // stderr closed; nothing better to do.
    }
  },
  env: (name) => process.env[name],
  cwd: () => process.cwd(),
  exit: (code) => process.exit(code),
  onSignal(signal, handler) {
    process.on(signal, handler);
    return () => process.off(signal, handler);
  },
  pid: () => process.pid,
  selfCommand,
  hostname: () => os.hostname(),
  isProcessAlive(pid) {
    try {
      process.kill(pid, 0);
      return true;
    } catch (error) {
      return (error as NodeJS.ErrnoException).code === "EPERM";
    }
  },
  kill(pid, signal) {
    try {
      process.kill(pid, signal);
    } catch {
      // Gone already.
    }
  },
  spawn,
  spawnPiped,
  readTextFile: (filePath) => fsp.readFile(filePath, "utf8"),
  readFileText,
  readFileBytes,
  openRandomReads,
  openAppend,
  rename: (from, to) => fsp.rename(from, to),
  realPath: (filePath) => fsp.realpath(filePath),
  remove: (filePath) => fsp.rm(filePath, { force: true, recursive: true }),
  stat,
  mkdir: async (dir) => {
    await fsp.mkdir(dir, { recursive: true });
  },
  readDir: (dir) => fsp.readdir(dir),
  makeTempDir: (prefix) => fsp.mkdtemp(path.join(os.tmpdir(), prefix)),
  removeAtExit: exitRemoval(
    (handler) => process.once("exit", handler),
    (dir) => fs.rmSync(dir, { force: true, recursive: true }),
  ),
  // node:http loads only when something serves HTTP.
  serve: async (options, handler) => (await import("./node_http.ts")).serve(options, handler),
};
