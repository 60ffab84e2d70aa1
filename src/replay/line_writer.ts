/**
 * The stdio replay's output: lines written in order on one writer (so they
 * never interleave), with the bytes the client has not taken yet counted,
 * so that the reader can stop taking requests until the client catches up.
 *
 * @module
 */
import { writeNowOf } from "../runtime/immediate.ts";

const encoder = new TextEncoder();

/** Output the client has not taken yet, beyond which replay stops reading requests. */
export const MAX_UNFLUSHED_BYTES = 1 << 20;

/** Lines out to the client, with backpressure. */
export class LineWriter {
  /** The client went away (or the replay ended): later writes do nothing. */
  closed = false;
  /** Bytes written but not yet taken by the client. */
  unflushed = 0;
  #writeNow: ((bytes: Uint8Array) => void) | undefined;
  #writer: WritableStreamDefaultWriter<Uint8Array>;
  #last: Promise<void> = Promise.resolve();
  #drained: (() => void) | undefined;

  constructor(output: WritableStream<Uint8Array>) {
    this.#writeNow = writeNowOf(output);
    this.#writer = output.getWriter();
  }

  /** Writes one line; resolves when it is written (at once where the runtime writes straight through). */
  write(text: string): Promise<void> {
    if (this.closed) return this.#last;
    const bytes = encoder.encode(text + "\n");
    if (this.#writeNow) return this.#writeAtOnce(bytes);
    this.unflushed += bytes.length;
    this.#last = this.#writer.write(bytes).then(
      () => {
        this.unflushed -= bytes.length;
        if (this.unflushed <= MAX_UNFLUSHED_BYTES) this.#drained?.();
      },
      () => {
        this.closed = true;
        this.#drained?.();
      },
    );
    return this.#last;
  }

  /** True when the client is behind by more than {@linkcode MAX_UNFLUSHED_BYTES}. */
  get behind(): boolean {
    return this.unflushed > MAX_UNFLUSHED_BYTES;
  }

  /** Resolves once the client has caught up (or gone). */
  caughtUp(): Promise<void> {
    return new Promise<void>((resolve) => (this.#drained = resolve));
  }

  /** Waits for what was written, then closes the output. */
  async close(): Promise<void> {
    await this.#last;
    this.closed = true;
    await this.#writer.close().catch(() => {});
  }

  /** Written before this returns: nothing is left unflushed. */
  #writeAtOnce(bytes: Uint8Array): Promise<void> {
    try {
      this.#writeNow!(bytes);
    } catch {
      this.closed = true; // The client went away.
    }
    return this.#last;
  }
}
