/**
 * A synchronous line splitter for code that must act on each complete line
 * the moment its last byte arrives (the recorder writes a frame to disk
 * before forwarding it). {@linkcode JsonlLineStream} is the streaming form.
 *
 * @module
 */

/** Splits UTF-8 bytes into lines (LF or CRLF), whatever the chunking. */
export class LineSplitter {
  #decoder = new TextDecoder();
  #pending = "";

  /** Feeds bytes; returns the lines they completed, without terminators. */
  push(chunk: Uint8Array): string[] {
    const text = this.#pending + this.#decoder.decode(chunk, { stream: true });
    const parts = text.split("\n");
    this.#pending = parts.pop()!;
    return parts.map((line) => (line.endsWith("\r") ? line.slice(0, -1) : line));
  }

  /** Ends the input; returns a last line that had no terminator, if any. */
  end(): string | undefined {
    const rest = this.#pending + this.#decoder.decode();
    this.#pending = "";
    return rest.length > 0 ? rest : undefined;
  }

  /** Characters held for an unfinished line. */
  get pendingLength(): number {
    return this.#pending.length;
  }
}
