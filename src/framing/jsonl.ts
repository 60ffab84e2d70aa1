/**
 * Bytes → lines, for newline-delimited JSON (MCP's stdio framing and the
 * cassette file). LF and CRLF both end a line, chunk boundaries never change
 * the result, and a line longer than the cap is refused instead of growing
 * memory without bound.
 *
 * @module
 */

/** Default cap on one line: 64 MiB, far above any sane MCP message. */
export const DEFAULT_MAX_LINE_CHARS = 64 * 1024 * 1024;

/** Raised (or reported) when a line exceeds the cap. */
export class LineTooLongError extends RangeError {
  constructor(readonly lineNumber: number, readonly maxChars: number) {
    super(`Line ${lineNumber} is longer than the cap of ${maxChars} characters`);
    this.name = "LineTooLongError";
  }
}

/** Options for {@linkcode JsonlLineStream}. */
export interface JsonlLineStreamOptions {
  /** Longest line accepted, in UTF-16 code units. */
  maxLineChars?: number;
  /**
   * Called for a line over the cap, which is then skipped. Without it the
   * stream errors with {@linkcode LineTooLongError}.
   */
  onOverlong?: (error: LineTooLongError) => void;
  /** Emit a final line that lacks its newline (default true). */
  emitUnterminated?: boolean;
  /** Called with the final unterminated text (before it is emitted, if it is). */
  onUnterminated?: (text: string) => void;
}

/**
 * A line's length without the CR of a CRLF ending, which the cap does not
 * count. (Allowing one extra character for it regardless let an LF-ended line
 * of cap + 1 characters through.) On a partial line, a final CR may yet be
 * half of a CRLF, so it is given the benefit of the doubt until the line ends.
 */
function contentLength(line: string): number {
  return line.endsWith("\r") ? line.length - 1 : line.length;
}

/**
 * The splitting itself, shared by the streams below and by code that must act
 * on each line the moment its last byte arrives (the recorder writes a frame
 * to disk before forwarding it).
 *
 * @example
 * ```ts
 * const splitter = new LineSplitter();
 * splitter.push(new TextEncoder().encode('{"a":1}\n{"b"')); // ['{"a":1}']
 * splitter.push(new TextEncoder().encode(":2}\n")); // ['{"b":2}']
 * ```
 */
export class LineSplitter {
  readonly #maxChars: number;
  readonly #onOverlong?: (error: LineTooLongError) => void;
  readonly #text = new Utf8Text();
  /**
   * The unfinished line, as pieces: appending to one string and measuring it
   * flattened the whole line on every chunk, quadratic for a long line.
   */
  #parts: string[] = [];
  #pendingLength = 0;
  #lineNumber = 0;
  #discarding = false;

  constructor(options: Pick<JsonlLineStreamOptions, "maxLineChars" | "onOverlong"> = {}) {
    this.#maxChars = options.maxLineChars ?? DEFAULT_MAX_LINE_CHARS;
    this.#onOverlong = options.onOverlong;
  }

  /**
   * Feeds bytes; returns the lines they completed, without terminators.
   * Throws {@linkcode LineTooLongError} for a line over the cap when no
   * `onOverlong` handler was given.
   */
  push(chunk: Uint8Array): string[] {
    return this.#split(this.#text.decode(chunk));
  }

  /** Like {@linkcode push}, for text already decoded (a leading BOM already dropped). */
  pushText(text: string): string[] {
    return this.#split(text);
  }

  /** Ends the input: returns the lines still held, and the unterminated rest, if any. */
  end(): { lines: string[]; rest?: string } {
    const lines = this.#split(this.#text.end());
    if (this.#pendingLength === 0 || this.#discarding) return { lines };
    const rest = this.#takePending("");
    return { lines, rest };
  }

  /** Strips a CRLF's CR and counts the line. */
  finish(line: string): string {
    this.#lineNumber++;
    return line.endsWith("\r") ? line.slice(0, -1) : line;
  }

  #overflow(): void {
    const error = new LineTooLongError(this.#lineNumber + 1, this.#maxChars);
    if (!this.#onOverlong) throw error;
    this.#onOverlong(error);
  }

  #split(text: string): string[] {
    const out: string[] = [];
    let start = 0;
    let newline = text.indexOf("\n");
    while (newline !== -1) {
      if (this.#discarding) {
        this.#discarding = false;
        this.#lineNumber++;
      } else {
        const line = this.#takePending(text.slice(start, newline));
        if (contentLength(line) > this.#maxChars) {
          this.#overflow();
          this.#lineNumber++;
        } else out.push(this.finish(line));
      }
      start = newline + 1;
      newline = text.indexOf("\n", start);
    }
    if (this.#discarding) return out;
    if (start < text.length) {
      this.#parts.push(text.slice(start));
      this.#pendingLength += text.length - start;
    }
    // As contentLength(): a final CR may yet be half of a CRLF.
    const finalCr = this.#parts.at(-1)?.endsWith("\r") ? 1 : 0;
    if (this.#pendingLength - finalCr > this.#maxChars) {
      this.#parts = [];
      this.#pendingLength = 0;
      this.#discarding = true;
      this.#overflow();
    }
    return out;
  }

  /** The unfinished line plus `tail`, emptying the pending pieces. */
  #takePending(tail: string): string {
    const line = this.#pendingLength === 0 ? tail : this.#parts.join("") + tail;
    this.#parts = [];
    this.#pendingLength = 0;
    return line;
  }
}

/**
 * UTF-8 bytes to text across chunks, as `TextDecoder` with `stream: true`
 * does, a leading BOM dropped. A chunk that ends on an ASCII byte, with
 * nothing held from the one before, is decoded in one call without the
 * streaming state: Deno's streaming decode costs about 10 µs a call until
 * V8 has optimised its caller (measured over 400 calls, against 0.4 µs),
 * and replay and the recorder decode once per message.
 */
class Utf8Text {
  readonly #whole = new TextDecoder("utf-8", { ignoreBOM: true });
  readonly #streaming = new TextDecoder("utf-8", { ignoreBOM: true });
  /** The streaming decoder may hold the start of a character. */
  #holding = false;
  #started = false;

  decode(chunk: Uint8Array): string {
    const endsOnAscii = chunk.length > 0 && chunk[chunk.length - 1] < 0x80;
    let text: string;
    if (endsOnAscii && !this.#holding) text = this.#whole.decode(chunk);
    else {
      text = this.#streaming.decode(chunk, { stream: true });
      // After a chunk that ends on an ASCII byte, nothing is left half-decoded.
      if (chunk.length > 0) this.#holding = !endsOnAscii;
    }
    return this.#dropBom(text);
  }

  end(): string {
    this.#holding = false;
    return this.#dropBom(this.#streaming.decode());
  }

  #dropBom(text: string): string {
    if (this.#started || text === "") return text;
    this.#started = true;
    return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  }
}

/**
 * Splits a byte stream into lines without their terminators.
 *
 * @example
 * ```ts
 * const lines = byteStream.pipeThrough(new JsonlLineStream());
 * for await (const line of lines) console.log(JSON.parse(line));
 * ```
 */
export class JsonlLineStream extends TransformStream<Uint8Array, string> {
  constructor(options: JsonlLineStreamOptions = {}) {
    const splitter = new LineSplitter(options);
    const enqueue = (lines: string[], controller: TransformStreamDefaultController<string>) => {
      for (const line of lines) controller.enqueue(line);
    };
    super({
      transform(chunk, controller) {
        enqueue(splitter.push(chunk), controller);
      },
      flush(controller) {
        const { lines, rest } = splitter.end();
        if (rest !== undefined) {
          options.onUnterminated?.(rest);
          if (options.emitUnterminated !== false) lines.push(splitter.finish(rest));
        }
        enqueue(lines, controller);
      },
    });
  }
}
