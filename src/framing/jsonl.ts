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
    const maxChars = options.maxLineChars ?? DEFAULT_MAX_LINE_CHARS;
    const decoder = new TextDecoder();
    let pending = "";
    let lineNumber = 0;
    let discarding = false;

    const overflow = (controller: TransformStreamDefaultController<string>) => {
      const error = new LineTooLongError(lineNumber + 1, maxChars);
      if (!options.onOverlong) {
        controller.error(error);
        return false;
      }
      options.onOverlong(error);
      return true;
    };

    const emit = (line: string, controller: TransformStreamDefaultController<string>) => {
      lineNumber++;
      controller.enqueue(line.endsWith("\r") ? line.slice(0, -1) : line);
    };

    const push = (text: string, controller: TransformStreamDefaultController<string>) => {
      let start = 0;
      let newline = text.indexOf("\n");
      while (newline !== -1) {
        if (discarding) {
          discarding = false;
          lineNumber++;
        } else {
          const line = pending + text.slice(start, newline);
          pending = "";
          if (contentLength(line) > maxChars) {
            if (!overflow(controller)) return;
            lineNumber++;
          } else emit(line, controller);
        }
        start = newline + 1;
        newline = text.indexOf("\n", start);
      }
      if (discarding) return;
      pending += text.slice(start);
      if (contentLength(pending) > maxChars) {
        pending = "";
        if (!overflow(controller)) return;
        discarding = true;
      }
    };

    super({
      transform(chunk, controller) {
        push(decoder.decode(chunk, { stream: true }), controller);
      },
      flush(controller) {
        push(decoder.decode(), controller);
        if (pending.length > 0 && !discarding) {
          options.onUnterminated?.(pending);
          if (options.emitUnterminated !== false) emit(pending, controller);
        }
      },
    });
  }
}
