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
 * Lines are encoded into one buffer kept for the writer's life, this many
 * UTF-16 units at a time (a character takes at most three bytes): no string
 * made with the newline and no bytes allocated per line. A long line goes
 * out in pieces of this size, from the parts it was made of when the caller
 * has them: an answer of a megabyte with its id spliced in, joined and
 * encoded whole, was copied twice more per answer, and a slow client's
 * replay swung between 75 and 140 MB, past 150 MB on a loaded machine
 * (tests/reliability/replay_flow_test.ts).
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

  /**
   * Writes one line; resolves when it is written (at once where the runtime
   * writes straight through). `pieces`, when given, are the line's text in
   * parts (see `Ready.pieces`): a long line is written from them.
   */
  write(text: string, pieces?: readonly string[]): Promise<void> {
    if (this.closed) return this.#last;
    if (this.#writeNow) return this.#writeAtOnce(text, pieces);
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
  #writeAtOnce(text: string, pieces?: readonly string[]): Promise<void> {
    const scratch = this.#scratch ??= new Uint8Array(SCRATCH_UNITS * 3 + 1);
    try {
      if (text.length <= SCRATCH_UNITS) {
        const { written } = encoder.encodeInto(text, scratch);
        scratch[written] = 0x0a;
        this.#writeNow!(scratch.subarray(0, written + 1));
      } else {
        for (const piece of pieces ?? [text]) this.#writeLong(piece, scratch);
        this.#writeNow!(NEWLINE);
      }
    } catch {
      this.closed = true; // The client went away.
    }
    return this.#last;
  }

  /**
   * Writes `text` through the scratch buffer, {@linkcode SCRATCH_UNITS} at a
   * time. A piece never ends between the two halves of a surrogate pair,
   * which would each be encoded as U+FFFD.
   */
  #writeLong(text: string, scratch: Uint8Array): void {
    for (let from = 0; from < text.length;) {
      let to = Math.min(text.length, from + SCRATCH_UNITS);
      const last = text.charCodeAt(to - 1);
      if (to < text.length && last >= 0xd800 && last <= 0xdbff) to--;
      const { written } = encoder.encodeInto(text.slice(from, to), scratch);
      this.#writeNow!(scratch.subarray(0, written));
      from = to;
    }
  }
}
