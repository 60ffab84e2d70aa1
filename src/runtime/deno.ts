/**
 * The runtime on Deno's own APIs. Node's compatibility layer costs Deno
 * start-up time on its first use, and `replay` in a client's config starts
 * often, so nothing here imports a `node:` module.
 *
 * @module
 */
import type {
  BlockingEnd,
  ChildProcess,
  FileInfo,
  HttpHandler,
  HttpServer,
  PipedChildProcess,
  Runtime,
  ServeOptions,
  SharedPipes,
  Signal,
  SpawnOptions,
} from "./types.ts";
import { openAppend, openRandomReads, readFileBytes, readFileText } from "./deno_files.ts";
import { readableWithReadNow, writableWithWriteDirect } from "./immediate.ts";
import { exitRemoval } from "./exit_removal.ts";
import { Deno, encoder, syncWritable, writeAllSync } from "./deno_api.ts";
import { noteSignalListener, stdinStream } from "./deno_stdin.ts";
import type { DenoChild, DenoFile } from "./deno_api.ts";

function isNotFound(error: unknown): boolean {
  return (error as { code?: string }).code === "ENOENT";
}

/**
 * Starts a child. A command that cannot start fails the same way as on
 * Node: `exited` rejects, rather than `spawn` throwing.
 */
function startChild(
  command: readonly string[],
  options: SpawnOptions,
  stderr: "inherit" | "null" | "piped",
) {
  if (command.length === 0) throw new TypeError("Cannot start a server: the command is empty");
  let child: DenoChild;
  try {
    child = new Deno.Command(command[0], {
      args: command.slice(1),
      cwd: options.cwd,
      env: options.env,
      stdin: "piped",
      stdout: "piped",
      stderr,
    }).spawn();
  } catch (error) {
    return failedChild(error as Error);
  }
  const exited = child.status.then((status) => status.code);
  const pipes = pipeStreams(child);
  const stdin = pipes?.stdin ?? child.stdin;
  const stdout = pipes?.stdout ?? child.stdout;
  return {
    pid: child.pid,
    stdin,
    stdout,
    stderr: stderr === "piped" ? child.stderr : emptyStream(),
    exited,
    sharePipes: () => sharePipes(child.pid, stdin, stdout),
    kill(signal: Signal = "SIGTERM") {
      try {
        child.kill(signal);
      } catch {
        // Already gone.
      }
    },
  };
}

/** Deno's resource calls, from its internal namespace (absent: the public streams are used). */
interface ResourceCalls {
  read(rid: number, buffer: Uint8Array): Promise<number>;
  write(rid: number, bytes: Uint8Array): Promise<number>;
  tryClose(rid: number): void;
}

function resourceCalls(): ResourceCalls | undefined {
  const internal = (Deno as unknown as { internal?: symbol }).internal;
  const core = internal &&
    (Deno as unknown as Record<symbol, { core?: Partial<ResourceCalls> }>)[internal]?.core;
  return core?.read && core.write && core.tryClose ? core as ResourceCalls : undefined;
}

function ownRid(child: DenoChild, name: string): number | undefined {
  const symbol = Object.getOwnPropertySymbols(child).find((candidate) =>
    candidate.description === name
  );
  const rid = symbol && (child as unknown as Record<symbol, unknown>)[symbol];
  return typeof rid === "number" ? rid : undefined;
}

/**
 * The child's stdin and stdout as plain streams over its pipes. Deno's own
 * (a byte stream, a stream over an async op) cost the recorder, which moves
 * every message through both, about 35 µs a call more than Node's pipes
 * under the same SDK client (`scripts/bench.ts`). They reach the pipes
 * through Deno's internal resource calls; a Deno without them keeps its
 * public streams.
 */
function pipeStreams(
  child: DenoChild,
): { stdin: WritableStream<Uint8Array>; stdout: ReadableStream<Uint8Array> } | undefined {
  const calls = resourceCalls();
  const stdinRid = ownRid(child, "[[stdinRid]]");
  const stdoutRid = ownRid(child, "[[stdoutRid]]");
  if (!calls || stdinRid === undefined || stdoutRid === undefined) return undefined;
  const buffer = new Uint8Array(1 << 16);
  const stdout = readableWithReadNow(async () => {
    const read = await calls.read(stdoutRid, buffer);
    if (read > 0) return buffer.slice(0, read);
    calls.tryClose(stdoutRid);
    return undefined;
  }, () => calls.tryClose(stdoutRid));
  const stdin = writableWithWriteDirect(async (bytes) => {
    let offset = 0;
    while (offset < bytes.length) offset += await calls.write(stdinRid, bytes.subarray(offset));
  }, {
    close: () => calls.tryClose(stdinRid),
    abort: () => calls.tryClose(stdinRid),
  });
  return { stdin, stdout };
}

/**
 * The child's pipes by path, on Linux: `/proc/self/fd/N` opens the pipe
 * behind this process's descriptor N anew, for another thread to read or
 * write with blocking calls (Deno gives no descriptor numbers, so ours are
 * found as the ones on the same pipes as the child's 0 and 1). Opening a
 * pipe's read end blocks until it has a writer, and its write end until it
 * has a reader; an end opened here for both keeps either from blocking until
 * `release`, whatever the child does meanwhile.
 */
function sharePipes(
  pid: number,
  stdin: WritableStream<Uint8Array>,
  stdout: ReadableStream<Uint8Array>,
): SharedPipes | undefined {
  if (Deno.build.os !== "linux") return undefined;
  const holds: DenoFile[] = [];
  try {
    const toChild = ownEndOf(Deno.readLinkSync(`/proc/${pid}/fd/0`));
    const fromChild = ownEndOf(Deno.readLinkSync(`/proc/${pid}/fd/1`));
    if (toChild === undefined || fromChild === undefined) return undefined;
    for (const path of [toChild, fromChild]) {
      holds.push(Deno.openSync(path, { read: true, write: true }));
    }
    return {
      stdin: toChild,
      stdout: fromChild,
      async release() {
        for (const hold of holds) hold.close();
        await stdin.close().catch(() => {});
        await stdout.cancel().catch(() => {});
      },
    };
  } catch {
    // The child is gone, or /proc is not there to look in. A hold left open
    // would keep the child from ever reading the end of its input.
    for (const hold of holds) hold.close();
    return undefined;
  }
}

/** The path of this process's one descriptor on `pipe` (a `pipe:[inode]` link); undefined unless exactly one. */
function ownEndOf(pipe: string): string | undefined {
  if (!pipe.startsWith("pipe:")) return undefined;
  const found: string[] = [];
  for (const entry of Deno.readDirSync("/proc/self/fd")) {
    const path = `/proc/self/fd/${entry.name}`;
    try {
      if (Deno.readLinkSync(path) === pipe) found.push(path);
    } catch {
      // Closed while we looked (the listing's own descriptor is).
    }
  }
  return found.length === 1 ? found[0] : undefined;
}

/** A blocking end over this process's stdin (read) or stdout (write), or a file or pipe opened by path. */
function openBlocking(where: string, mode: "read" | "write"): BlockingEnd {
  const refuse = (): never => {
    throw new TypeError(`${where} is open only for ${mode === "read" ? "reading" : "writing"}`);
  };
  if (where === "stdin") {
    return { read: (buffer) => Deno.stdin.readSync(buffer), write: refuse, close() {} };
  }
  if (where === "stdout") {
    return {
      read: refuse,
      write: (bytes) => writeAllSync(Deno.stdout, bytes),
      close() {},
    };
  }
  const file = Deno.openSync(where, mode === "read" ? { read: true } : { write: true });
  return {
    read: mode === "read" ? (buffer) => file.readSync(buffer) : refuse,
    write: mode === "write" ? (bytes) => writeAllSync(file, bytes) : refuse,
    close: () => file.close(),
  };
}

function emptyStream(): ReadableStream<Uint8Array> {
  return new ReadableStream({ start: (controller) => controller.close() });
}

function failedChild(error: Error): PipedChildProcess {
  const exited = Promise.reject(error);
  exited.catch(() => {});
  return {
    pid: -1,
    stdin: new WritableStream(),
    stdout: emptyStream(),
    stderr: emptyStream(),
    exited,
    kill() {},
  };
}

async function stat(path: string): Promise<FileInfo | undefined> {
  try {
    const info = await Deno.lstat(path);
    return {
      isFile: info.isFile,
      isDirectory: info.isDirectory,
      isSymlink: info.isSymlink,
      size: info.size,
      mtimeMs: info.mtime?.getTime() ?? 0,
    };
  } catch (error) {
    if (isNotFound(error)) return undefined;
    throw error;
  }
}

function isProcessAlive(pid: number): boolean {
  if (Deno.build.os === "linux") {
    try {
      Deno.statSync(`/proc/${pid}`);
      return true;
    } catch {
      return false;
    }
  }
  // Elsewhere Deno has no signal 0; its Node-compatible `process` global does.
  const process = (globalThis as { process?: { kill(pid: number, signal: number): void } }).process;
  try {
    process?.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as { code?: string }).code === "EPERM";
  }
}

/**
 * `deno run -A cli.ts` from source, `cli.js` from the npm package (Deno
 * importing it from node_modules); a `deno compile` binary is its own command.
 */
function selfCommand(): string[] {
  if (Deno.build.standalone) return [Deno.execPath()];
  // Not module_url.ts: the CommonJS build, which needs that, never loads this file.
  const here = (import.meta as unknown as { url: string }).url;
  const script = /\.ts$/.test(new URL(here).pathname) ? "cli.ts" : "cli.js";
  const cli = new URL(`../../${script}`, here);
  const entry = cli.protocol === "file:" ? decodeURIComponent(cli.pathname) : cli.href;
  return [Deno.execPath(), "run", "-A", "--no-check", entry];
}

let stdin: ReadableStream<Uint8Array> | undefined;
let stdout: WritableStream<Uint8Array> | undefined;
let stderr: WritableStream<Uint8Array> | undefined;

/** The runtime on Deno. */
export const denoRuntime: Runtime = {
  name: "deno",
  args: Deno.args,
  get stdin() {
    return stdin ??= stdinStream();
  },
  get stdout() {
    return stdout ??= syncWritable(Deno.stdout);
  },
  get stderr() {
    return stderr ??= Deno.stderr.writable;
  },
  writeStderr(text) {
    try {
      writeAllSync(Deno.stderr, encoder.encode(text));
    } catch {
      // stderr closed; nothing better to do.
    }
  },
  env: (name) => Deno.env.get(name),
  cwd: () => Deno.cwd(),
  exit: (code) => Deno.exit(code),
  onSignal(signal, handler) {
    try {
      Deno.addSignalListener(signal, handler);
    } catch {
      return () => {}; // Windows knows only SIGINT and SIGBREAK.
    }
    noteSignalListener(signal, 1);
    let removed = false;
    return () => {
      if (removed) return;
      removed = true;
      Deno.removeSignalListener(signal, handler);
      noteSignalListener(signal, -1);
    };
  },
  pid: () => Deno.pid,
  selfCommand,
  hostname: () => Deno.hostname(),
  isProcessAlive,
  kill(pid, signal) {
    try {
      Deno.kill(pid, signal);
    } catch {
      // Gone already.
    }
  },
  spawn: (command, options = {}) => {
    const mode = options.stderr === "ignore"
      ? "null"
      : options.stderr === "pipe"
      ? "piped"
      : "inherit";
    return startChild(command, options, mode) as ChildProcess;
  },
  spawnPiped: (command, options = {}) => startChild(command, options, "piped") as PipedChildProcess,
  readTextFile: (path) => Deno.readTextFile(path),
  readFileText,
  readFileBytes,
  openRandomReads,
  openAppend,
  openBlocking,
  rename: (from, to) => Deno.rename(from, to),
  realPath: (path) => Deno.realPath(path),
  async remove(path) {
    try {
      await Deno.remove(path, { recursive: true });
    } catch (error) {
      if (!isNotFound(error)) throw error;
    }
  },
  stat,
  mkdir: (path) => Deno.mkdir(path, { recursive: true }),
  async readDir(path) {
    const names: string[] = [];
    for await (const entry of Deno.readDir(path)) names.push(entry.name);
    return names;
  },
  makeTempDir: (prefix) => Deno.makeTempDir({ prefix }),
  // `unload` runs at a normal end and at Deno.exit(), as `exit` handlers do on Node.
  removeAtExit: exitRemoval(
    (handler) =>
      (globalThis as unknown as { addEventListener(type: "unload", fn: () => void): void })
        .addEventListener("unload", handler),
    (path) => Deno.removeSync(path, { recursive: true }),
  ),
  serve,
};

/**
 * Deno's own HTTP server, with idle connections closed (./deno_http.ts):
 * about four times the throughput of `node:http` through Deno's
 * compatibility layer with Web Request/Response conversion (measured under
 * the same load). On a Deno without per-connection serving an exposed
 * address is served on `node:http` instead, which can close idle connections.
 */
async function serve(options: ServeOptions, handler: HttpHandler): Promise<HttpServer> {
  const denoHttp = await import("./deno_http.ts");
  if (options.exposed && !denoHttp.closesIdleConnections()) {
    return await (await import("./node_http.ts")).serve(options, handler);
  }
  return await denoHttp.serve(options, handler);
}
