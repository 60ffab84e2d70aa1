/**
 * Byte streams that can also be written at once. A write through a
 * WritableStream's queue costs about 5 µs a chunk in a replay session
 * (measured from `writer.write` to the sink, before V8 has optimised the
 * stream machinery), and replay writes one chunk per answer; a stream whose
 * sink writes synchronously anyway (stdout under Deno) offers the same write
 * without the queue.
 *
 * @module
 */

/** A WritableStream whose chunks can also be written straight through, done when the call returns. */
export interface ImmediateWritable extends WritableStream<Uint8Array> {
  writeNow(bytes: Uint8Array): void;
}

/** `stream`, whose sink is `write`, offering `write` itself as well. */
export function withWriteNow(stream: WritableStream<Uint8Array>, write: (bytes: Uint8Array) => void): ImmediateWritable {
  return Object.assign(stream, { writeNow: write });
}

/**
 * The stream's immediate write, when it has one. Use it for every chunk or
 * for none: it does not wait for chunks queued on the stream.
 */
export function writeNowOf(stream: WritableStream<Uint8Array>): ((bytes: Uint8Array) => void) | undefined {
  const write = (stream as Partial<ImmediateWritable>).writeNow;
  return typeof write === "function" ? write : undefined;
}
