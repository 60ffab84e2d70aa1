/**
 * Byte streams that can also be read and written at once. Going through a
 * Web stream's queue costs a few microseconds a chunk while V8 has not yet
 * optimised the stream machinery, and replay and the recorder move one chunk
 * per message: replay answered about 8 µs sooner, and used 9 µs less CPU a
 * request, reading its stdin straight from the source (SDK client, 20
 * sessions of 400 calls each, alternating), and a write reached its sink
 * about 5 µs after `writer.write`. Streams the runtime makes over its own pipes
 * (stdin and stdout, a child's stdin and stdout) offer these shortcuts;
 * everything else is read and written as a stream.
 *
 * @module
 */

/** A ReadableStream whose chunks can also be taken straight from the source. */
export interface ImmediateReadable extends ReadableStream<Uint8Array> {
  /** The next chunk, or undefined at the end. */
  readNow(): Promise<Uint8Array | undefined>;
}

/** A stream that can also be read with a call that blocks the thread until bytes come. */
export interface BlockingReadable extends ImmediateReadable {
  /**
   * The next chunk, read at once, blocking the thread meanwhile; undefined
   * at the end; null where a blocking read cannot start now (read with
   * `readNow`).
   */
  readBlocking(): Uint8Array | undefined | null;
}

/** A WritableStream whose chunks can also be written straight through, done when the call returns. */
export interface ImmediateWritable extends WritableStream<Uint8Array> {
  writeNow(bytes: Uint8Array): void;
}

/** A WritableStream whose chunks can also go straight to its sink, one at a time. */
export interface DirectWritable extends WritableStream<Uint8Array> {
  /** Writes `bytes`; the next write waits for the promise. */
  writeDirect(bytes: Uint8Array): Promise<void>;
}

/** A stream pulled from `readNow` (a chunk, or undefined at the end), offering `readNow` itself as well. */
export function readableWithReadNow(
  readNow: () => Promise<Uint8Array | undefined>,
  cancel: () => void,
): ImmediateReadable {
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const chunk = await readNow();
      if (chunk === undefined) controller.close();
      else controller.enqueue(chunk);
    },
    cancel,
  }, { highWaterMark: 0 });
  return Object.assign(stream, { readNow });
}

/** What a sink does besides writing. */
export interface SinkEnds {
  close?(): void;
  abort?(): void;
}

/** A stream whose sink writes synchronously with `write`, offering `write` itself as well. */
export function writableWithWriteNow(
  write: (bytes: Uint8Array) => void,
  sink: SinkEnds,
): ImmediateWritable {
  return Object.assign(new WritableStream<Uint8Array>({ ...sink, write }), { writeNow: write });
}

/** A stream whose sink is `write`, offering `write` itself as well. */
export function writableWithWriteDirect(
  write: (bytes: Uint8Array) => Promise<void>,
  sink: SinkEnds,
): DirectWritable {
  return Object.assign(new WritableStream<Uint8Array>({ ...sink, write }), { writeDirect: write });
}

/** Where a loop takes a stream's chunks from: its immediate read when it has one, else a reader. */
export interface ChunkSource {
  /** The next chunk, or undefined at the end. */
  next(): Promise<Uint8Array | undefined>;
  /** Lets go of the stream. */
  release(): void;
}

/**
 * The chunks of `stream`, one at a time. Use one source per stream: it does
 * not share with a reader. With `idle`, a stream that can block
 * ({@linkcode BlockingReadable}) is read blocking whenever `idle()` says the
 * reader has nothing else to wait for: no timer, no pending work.
 */
export function chunkSource(
  stream: ReadableStream<Uint8Array>,
  idle?: () => boolean,
): ChunkSource {
  const readNow = (stream as Partial<ImmediateReadable>).readNow;
  const readBlocking = (stream as Partial<BlockingReadable>).readBlocking;
  if (typeof readNow === "function") {
    if (!idle || typeof readBlocking !== "function") return { next: readNow, release: () => {} };
    let reads = 0;
    // Every so often through the event loop: V8 runs the collector's tasks there.
    const blocking = () => ++reads % EVENT_LOOP_EVERY === 0 ? null : readBlocking();
    return { next: () => readWhenIdle(readNow, blocking, idle), release: () => {} };
  }
  const reader = stream.getReader();
  return {
    next: async () => {
      const { done, value } = await reader.read();
      return done ? undefined : value;
    },
    release: () => reader.releaseLock(),
  };
}

/**
 * The stream's immediate write, when it has one. Use it for every chunk or
 * for none: it does not wait for chunks queued on the stream.
 */
export function writeNowOf(
  stream: WritableStream<Uint8Array>,
): ((bytes: Uint8Array) => void) | undefined {
  const write = (stream as Partial<ImmediateWritable>).writeNow;
  return typeof write === "function" ? write : undefined;
}

/**
 * How a loop that writes one chunk at a time, waiting for any promise it gets
 * back, writes to `stream`: at once, or straight to the sink, when it offers
 * either; else through `writer`, its locked writer. Use it for every chunk.
 */
export function chunkWriter(
  stream: WritableStream<Uint8Array>,
  writer: WritableStreamDefaultWriter<Uint8Array>,
): (bytes: Uint8Array) => void | Promise<void> {
  const direct = (stream as Partial<DirectWritable>).writeDirect;
  return writeNowOf(stream) ??
    (typeof direct === "function" ? direct : (bytes) => writer.write(bytes));
}

/**
 * How many microtask turns a reader waits for `idle` before it reads
 * without blocking: what the last chunk started settles within a few dozen
 * (each `await` unwinding takes one or two), while work that waits on a
 * timer or another stream never does.
 */
const SETTLE_TURNS = 64;

/**
 * One read in this many goes through the event loop even when blocking
 * would do: a thread that only ever blocks never runs the tasks V8 posts to
 * it, the garbage collector's among them, and a replay answering 100,000
 * calls one at a time peaked higher (scripts/bench/scale.ts, "every call
 * answered").
 */
const EVENT_LOOP_EVERY = 64;

/** A blocking read when the reader becomes `idle` within {@linkcode SETTLE_TURNS}, else `readNow`. */
async function readWhenIdle(
  readNow: () => Promise<Uint8Array | undefined>,
  readBlocking: () => Uint8Array | undefined | null,
  idle: () => boolean,
): Promise<Uint8Array | undefined> {
  for (let turn = 0; turn < SETTLE_TURNS && !idle(); turn++) await null;
  const chunk = idle() ? readBlocking() : null;
  return chunk === null ? await readNow() : chunk;
}
