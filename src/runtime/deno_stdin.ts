/**
 * This process's stdin on Deno: read asynchronously, or, while its reader
 * has nothing else to do, with blocking reads on the main thread.
 *
 * Deno reads stdin on a thread of its blocking pool: every read duplicates
 * the descriptor, wakes a pool thread, and wakes the main thread again when
 * bytes come (strace: `fcntl(0, F_DUPFD_CLOEXEC)`, two futex wakes and a
 * `close` per read). For a replay answering one request at a time that hop
 * was most of the gap to a Python peer that blocks in read(2): a minimal
 * responder answered in 153 µs per call reading asynchronously and in 109 µs
 * blocking (scripts/bench/peers.ts, same run).
 *
 * A blocked main thread runs no signal listener, though, and a stdio replay
 * listens for SIGINT and SIGTERM to write its report. So while stdin is read
 * blocking and a listener is set, a worker listens for the same signals; on
 * one it raises a shared flag and writes a newline into our own stdin pipe
 * (through /proc/self/fd/0), which ends the blocked read. The reader sees the
 * flag and goes back to the event loop, where the main thread's listener
 * runs. Blocking reads are offered only where that works: stdin is a pipe on
 * Linux.
 *
 * @module
 */
import { Deno } from "./deno_api.ts";
import { readableWithReadNow } from "./immediate.ts";
import type { BlockingReadable } from "./immediate.ts";

/** The signals a stdio replay listens for: the waker listens for them too. */
const WATCHED = ["SIGINT", "SIGTERM"] as const;

/** The worker's source: on a watched signal, raise the flag and wake the blocked read. */
const WAKER_SOURCE = `
let flag;
const wake = () => {
  Atomics.store(flag, 0, 1);
  try {
    const pipe = Deno.openSync("/proc/self/fd/0", { write: true });
    pipe.writeSync(new Uint8Array([10]));
    pipe.close();
  } catch {
    // stdin is gone: the blocked read has ended already.
  }
};
self.onmessage = ({ data }) => {
  flag = new Int32Array(data);
  for (const signal of ${JSON.stringify(WATCHED)}) Deno.addSignalListener(signal, wake);
  self.postMessage("ready");
};
`;

/** The Web Worker, as far as the waker uses it (declared: the checked libraries leave it out). */
interface WorkerLike {
  onmessage: (() => void) | null;
  postMessage(data: unknown): void;
  terminate(): void;
}
const Worker = (globalThis as unknown as {
  Worker: new (url: string, options: { type: "module" }) => WorkerLike;
}).Worker;

/** The worker that wakes a blocked read on a signal, once it listens. */
interface Waker {
  worker: WorkerLike;
  ready: boolean;
  flag: Int32Array;
}

/** How many listeners the main thread has per watched signal (deno.ts's `onSignal` keeps it). */
const listeners = new Map<string, number>();
let waker: Waker | undefined;

/** Counts a signal listener added (+1) or removed (-1); the waker stops with the last one. */
export function noteSignalListener(signal: string, change: 1 | -1): void {
  listeners.set(signal, (listeners.get(signal) ?? 0) + change);
  if (waker && ![...listeners.values()].some((count) => count > 0)) {
    waker.worker.terminate();
    waker = undefined;
  }
}

/** True when a blocking read may start now: no signal would go unheard while it waits. */
function mayBlock(): boolean {
  const listening = [...listeners].filter(([, count]) => count > 0).map(([signal]) => signal);
  if (listening.length === 0) return true;
  if (listening.some((signal) => !(WATCHED as readonly string[]).includes(signal))) return false;
  waker ??= startWaker();
  return waker !== undefined && waker.ready && Atomics.load(waker.flag, 0) === 0;
}

function startWaker(): Waker | undefined {
  try {
    const url = `data:application/javascript,${encodeURIComponent(WAKER_SOURCE)}`;
    const worker = new Worker(url, { type: "module" });
    const started: Waker = { worker, ready: false, flag: new Int32Array(new SharedArrayBuffer(4)) };
    worker.onmessage = () => (started.ready = true);
    worker.postMessage(started.flag.buffer);
    return started;
  } catch {
    return undefined;
  }
}

/**
 * True when our stdin is a pipe on Linux (where /proc/self/fd/0 reopens it)
 * and the waker may open it for writing.
 */
function stdinIsPipe(): boolean {
  try {
    return Deno.build.os === "linux" && /^pipe:/.test(Deno.readLinkSync("/proc/self/fd/0")) &&
      Deno.permissions.querySync({ name: "write", path: "/proc/self/fd/0" }).state === "granted";
  } catch {
    return false;
  }
}

/**
 * Our stdin, read into one buffer and handed on as a copy of what arrived.
 * `Deno.stdin.readable` is a byte stream whose machinery runs on every read;
 * replay and the recorder read once per message.
 */
export function stdinStream(bufferBytes = 1 << 16): BlockingReadable {
  const buffer = new Uint8Array(bufferBytes);
  const copy = (read: number | null) => read === null ? undefined : buffer.slice(0, read);
  const stream = readableWithReadNow(async () => copy(await Deno.stdin.read(buffer)), () => {
    try {
      Deno.stdin.close();
    } catch {
      // Already closed.
    }
  });
  const pipe = stdinIsPipe();
  const readBlocking = () => pipe && mayBlock() ? copy(Deno.stdin.readSync(buffer)) : null;
  return Object.assign(stream, { readBlocking });
}
