/**
 * The stdio replay's output: lines written in order on one writer (so they
 * never interleave), with the bytes the client has not taken yet counted,
 * so that the reader can stop taking requests until the client catches up.
 *
 * @module
 */
import { writeNowOf } from "../runtime/immediate.ts";

const encoder = new TextEncoder();
const NEWLINE = new Uint8Array([0x0a]);
/**
 * Lines up to this many UTF-16 units are encoded into one buffer kept for
 * the writer's life (a character takes at most three bytes): no string made
 * with the newline and no bytes allocated per line. Longer lines are encoded
 * alone and followed by the newline in a second write: an answer of a
 * megabyte was held three times over (the text, the text with its newline,
 * the bytes) until a collection came, and a slow client's replay grew
 * towards 150 MB on a loaded machine (tests/reliability/replay_flow_test.ts).
 */
const SCRATCH_UNITS = 16 * 1024;

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
  #scratch: Uint8Array | undefined;

  constructor(output: WritableStream<Uint8Array>) {
    this.#writeNow = writeNowOf(output);
    this.#writer = output.getWriter();
  }

  /** Writes one line; resolves when it is written (at once where the runtime writes straight through). */
  write(text: string): Promise<void> {
    if (this.closed) return this.#last;
    if (this.#writeNow) return this.#writeAtOnce(text);
    const bytes = encoder.encode(text + "\n");
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
  #writeAtOnce(text: string): Promise<void> {
    try {
      if (text.length <= SCRATCH_UNITS) {
        const scratch = this.#scratch ??= new Uint8Array(SCRATCH_UNITS * 3 + 1);
        const { written } = encoder.encodeInto(text, scratch);
        scratch[written] = 0x0a;
        this.#writeNow!(scratch.subarray(0, written + 1));
      } else {
        this.#writeNow!(encoder.encode(text));
        this.#writeNow!(NEWLINE);
      }
    } catch {
      this.closed = true; // The client went away.
    }
    return this.#last;
  }
}
