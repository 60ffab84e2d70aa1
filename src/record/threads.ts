/**
 * The stdio recorder on two threads, one per direction (./stdio_thread.ts),
 * where the runtime can hand a child's pipes to other threads (Deno on
 * Linux). Each thread waits in a blocking read instead of on the event loop,
 * which costs a call through the recorder tens of microseconds less
 * (`scripts/bench.ts` times both; BENCHMARKS.md). Everywhere else the
 * recorder copies on the main thread (./pump.ts).
 *
 * The main thread keeps the rest: the header and session entries, signals,
 * the child's exit. Each thread appends to the cassette through its own
 * descriptor; every descriptor appends, so no write lands on another.
 *
 * @module
 */
import type { Direction, RedactionInfo } from "../cassette/format.ts";
import type { RedactOptions, Redactor } from "../redact/mod.ts";
import { runtime } from "../runtime/mod.ts";
import type { ChildProcess } from "../runtime/mod.ts";
import { startThread } from "../runtime/thread.ts";
import type { Thread } from "../runtime/thread.ts";

/** What a thread is told to prepare, before it is given its pipe. */
export interface ThreadTask {
  dir: Direction;
  /** The file the cassette is being written to. */
  cassette: string;
  session?: string;
  redact?: RedactOptions;
  /** The main thread's redactor's `info()`: the thread's must match it. */
  redaction?: RedactionInfo;
  /** This thread's gate into the recording (see {@linkcode enterGate}). */
  gate: Int32Array;
}

/** The threads' module, beside this one: `.ts` in a checkout, `.js` in the npm package. */
const HERE = (import.meta as unknown as { url: string }).url;
const THREAD_MODULE = new URL(`./stdio_thread.${HERE.endsWith(".ts") ? "ts" : "js"}`, HERE);

/** From the main thread to a recorder thread. */
export type ToThread =
  | { kind: "prepare"; task: ThreadTask }
  | { kind: "run"; pipe: string; start: number };

/** From a recorder thread to the main thread. */
export type FromThread =
  | { kind: "prepared" }
  | { kind: "failed"; message: string }
  | { kind: "opened" }
  | { kind: "log"; line: string }
  /** The thread's write to the cassette failed (a full disk): it forwards on, writing nothing. */
  | { kind: "write-failed"; message: string }
  | { kind: "done" };

const OPEN = 0;
const WRITING = 1;
const CLOSED = 2;

/**
 * Takes a thread's gate before it writes: false once the main thread has
 * closed the recording, after which the thread writes (and forwards)
 * nothing more. Each thread has a gate of its own, held only for the length
 * of one write.
 */
export function enterGate(gate: Int32Array): boolean {
  return Atomics.compareExchange(gate, 0, OPEN, WRITING) === OPEN;
}

/** Gives the gate back after the write. */
export function leaveGate(gate: Int32Array): void {
  Atomics.store(gate, 0, OPEN);
}

/** What the recorder needs of the threads it prepared. */
export interface RecorderThreads {
  /**
   * Hands the child's pipes to the threads and starts copying; resolves
   * with each direction's end (`toClient`, and `toServer`: the client's
   * input ended and the child's closed), or undefined
   * when the pipes cannot be handed over (the threads are then stopped and
   * the recorder copies on the main thread).
   */
  run(
    child: ChildProcess,
    start: number,
  ): Promise<{ toClient: Promise<void>; toServer: Promise<void> } | undefined>;
  /** Closes the recording: once this returns no thread writes to the cassette. */
  close(): void;
  /** Stops both threads (one may be waiting on stdin for good). */
  stop(): void;
}

/** Options of {@linkcode prepareThreads}. */
export interface ThreadOptions {
  /** The file the cassette is being written to (its header already there). */
  cassette: string;
  session?: string;
  redactor?: Redactor;
  log?: (line: string) => void;
  /** A thread's write failed; the message names the file and the cause. */
  onWriteFailure?: (message: string) => void;
}

/**
 * Starts the two threads and has them load what they need. Undefined when
 * this runtime cannot run them, or when the redactor cannot be rebuilt on
 * another thread.
 */
export function prepareThreads(options: ThreadOptions): RecorderThreads | undefined {
  if (!runtime.openBlocking) return undefined;
  if (options.redactor && !options.redactor.recipe) return undefined;
  const gates = new Int32Array(new SharedArrayBuffer(8));
  const threads = (["c2s", "s2c"] as const).map((dir, i) =>
    startRecorderThread({
      dir,
      cassette: options.cassette,
      session: options.session,
      redact: options.redactor?.recipe,
      redaction: options.redactor?.info(),
      gate: gates.subarray(i, i + 1),
    }, options)
  );
  if (threads.some((thread) => thread === undefined)) {
    threads.forEach((thread) => thread?.stop());
    return undefined;
  }
  const [toServer, toClient] = threads as RecorderThread[];
  const stop = () => [toServer, toClient].forEach((thread) => thread.stop());
  return {
    async run(child, start) {
      const prepared = await Promise.all([toServer.prepared, toClient.prepared]);
      const pipes = prepared.every(Boolean) ? child.sharePipes?.() : undefined;
      if (!pipes) {
        stop();
        return undefined;
      }
      toServer.run(pipes.stdin, start);
      toClient.run(pipes.stdout, start);
      await Promise.all([toServer.opened, toClient.opened]);
      await pipes.release();
      return { toClient: toClient.done, toServer: toServer.done };
    },
    close() {
      // A thread holds its gate only while it writes a chunk's lines: wait that out.
      for (let i = 0; i < gates.length; i++) {
        while (Atomics.compareExchange(gates, i, OPEN, CLOSED) === WRITING);
      }
    },
    stop,
  };
}

/** A thread being prepared. */
interface RecorderThread {
  /** Resolves true once the thread is ready to run, false if it cannot be. */
  prepared: Promise<boolean>;
  run(pipe: string, start: number): void;
  /** Resolves once the thread has opened its ends. */
  opened: Promise<void>;
  /** Resolves when the thread has copied all there was. */
  done: Promise<void>;
  stop(): void;
}

/** Starts one thread and has it prepare; undefined where threads cannot start. */
function startRecorderThread(
  task: ThreadTask,
  { log, onWriteFailure }: ThreadOptions,
): RecorderThread | undefined {
  const prepared = later<boolean>();
  const opened = later<void>();
  const done = later<void>();
  const thread: Thread | undefined = startThread(
    THREAD_MODULE,
    (message) => {
      const received = message as FromThread;
      if (received.kind === "prepared") prepared.resolve(true);
      else if (received.kind === "failed") prepared.resolve(false);
      else if (received.kind === "opened") opened.resolve();
      else if (received.kind === "log") log?.(received.line);
      else if (received.kind === "write-failed") onWriteFailure?.(received.message);
      else done.resolve();
    },
    (message) => {
      log?.(`the recorder's ${task.dir} thread failed: ${message}`);
      prepared.resolve(false);
      opened.resolve();
      done.resolve();
    },
  );
  if (!thread) return undefined;
  thread.post({ kind: "prepare", task } satisfies ToThread);
  return {
    prepared: prepared.promise,
    run: (pipe, start) => thread.post({ kind: "run", pipe, start } satisfies ToThread),
    opened: opened.promise,
    done: done.promise,
    stop: () => thread.stop(),
  };
}

/** A promise and the function that resolves it. */
function later<T>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((settle) => (resolve = settle));
  return { promise, resolve };
}
