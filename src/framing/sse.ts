/**
 * Server-Sent Events (the `text/event-stream` body of MCP's Streamable HTTP
 * transport): a parser and an encoder, as Web `TransformStream`s.
 *
 * The parser follows the WHATWG HTML rules for "interpreting an event stream"
 * to the letter, because a recorder that is looser or stricter than a real
 * client would record events the client never saw (or miss ones it did):
 *
 * - lines end with CRLF, LF or CR, and a CR that ends one read may be the first
 *   half of a CRLF finishing in the next read, so it must not make a blank line;
 * - a UTF-8 byte order mark is dropped, but only at the very start;
 * - `field: value` loses exactly one space after the colon;
 * - lines starting with `:` are comments;
 * - `data` lines join with `\n`; a block without a `data` field is not
 *   dispatched, but an empty `data:` line is (its data is `""`);
 * - an `id` containing NUL is ignored; `retry` counts only if all ASCII digits;
 * - an event is dispatched only at a blank line, so text after the last blank
 *   line when the stream ends is discarded.
 *
 * @example
 * ```ts
 * const events = response.body!.pipeThrough(new SseParserStream());
 * for await (const event of events) console.log(event.id, JSON.parse(event.data));
 * ```
 *
 * @module
 */

export type { SseEvent } from "./sse_event.ts";
import type { SseEvent } from "./sse_event.ts";

/** Options for {@linkcode SseParserStream} and {@linkcode parseSseText}. */
export interface SseParserOptions {
  /**
   * Called with the text of every comment line, everything after the `:`
   * verbatim (no space stripped), so a recorder can keep keep-alives and
   * replay them byte for byte with {@linkcode encodeSseComment}.
   */
  onComment?: (text: string) => void;
}

const LF = 0x0a;
const CR = 0x0d;
const BOM = "\uFEFF";
const ALL_DIGITS = /^[0-9]+$/;

/**
 * The spec's parser state machine over already-decoded text. Shared by the
 * stream and by {@linkcode parseSseText} so both behave identically.
 */
class SseTextParser {
  /** Text of the current line, not yet terminated. */
  #line = "";
  /** The previous text ended in CR: a leading LF in the next text belongs to it. */
  #pendingCr = false;
  /** No text seen yet: a BOM here is dropped. */
  #atStart = true;
  #data = "";
  #eventType = "";
  #retry: number | undefined = undefined;
  #lastEventId: string | undefined = undefined;
  #reconnectionTime: number | undefined = undefined;

  constructor(
    private readonly dispatch: (event: SseEvent) => void,
    private readonly onComment?: (text: string) => void,
  ) {}

  /** The last event ID buffer; `undefined` until an `id` field is seen. */
  get lastEventId(): string | undefined {
    return this.#lastEventId;
  }

  /** The last valid `retry` value seen anywhere in the stream. */
  get reconnectionTime(): number | undefined {
    return this.#reconnectionTime;
  }

  push(text: string): void {
    if (text.length === 0) return;
    let start = 0;
    if (this.#atStart) {
      this.#atStart = false;
      if (text.startsWith(BOM)) start = 1;
    }
    if (this.#pendingCr) {
      this.#pendingCr = false;
      if (text.charCodeAt(start) === LF) start++;
    }
    for (let index = start; index < text.length; index++) {
      const code = text.charCodeAt(index);
      if (code !== LF && code !== CR) continue;
      this.#processLine(this.#line + text.slice(start, index));
      this.#line = "";
      if (code === CR) {
        if (index + 1 === text.length) this.#pendingCr = true;
        else if (text.charCodeAt(index + 1) === LF) index++;
      }
      start = index + 1;
    }
    this.#line += text.slice(start);
  }

  /** End of stream: an unterminated line and an undispatched block are discarded. */
  end(): void {
    this.#line = "";
    this.#resetBlock();
  }

  #processLine(line: string): void {
    if (line === "") return this.#dispatchBlock();
    const colon = line.indexOf(":");
    if (colon === 0) return this.onComment?.(line.slice(1));
    if (colon === -1) return this.#processField(line, "");
    const value = line.charCodeAt(colon + 1) === 0x20
      ? line.slice(colon + 2)
      : line.slice(colon + 1);
    this.#processField(line.slice(0, colon), value);
  }

  #processField(name: string, value: string): void {
    switch (name) {
      case "event":
        this.#eventType = value;
        break;
      case "data":
        this.#data += value + "\n";
        break;
      case "id":
        if (!value.includes("\0")) this.#lastEventId = value;
        break;
      case "retry":
        if (ALL_DIGITS.test(value)) {
          this.#retry = Number(value);
          this.#reconnectionTime = this.#retry;
        }
        break;
        // Any other field name is ignored, as the spec says.
    }
  }

  #dispatchBlock(): void {
    // An empty data buffer means no data field at all: `data:` alone adds "\n".
    if (this.#data !== "") {
      const event: SseEvent = { data: this.#data.slice(0, -1) };
      if (this.#eventType !== "") event.event = this.#eventType;
      if (this.#lastEventId !== undefined) event.id = this.#lastEventId;
      if (this.#retry !== undefined) event.retry = this.#retry;
      this.dispatch(event);
    }
    this.#resetBlock();
  }

  /** The last event ID deliberately survives: the spec never resets it. */
  #resetBlock(): void {
    this.#data = "";
    this.#eventType = "";
    this.#retry = undefined;
  }
}

/**
 * Parses an event stream into {@linkcode SseEvent}s. Accepts bytes (decoded
 * as UTF-8 in streaming mode, so a character split across reads is whole) or
 * already-decoded strings.
 *
 * @example
 * ```ts
 * const comments: string[] = [];
 * const parser = new SseParserStream({ onComment: (text) => comments.push(text) });
 * for await (const event of response.body!.pipeThrough(parser)) handle(event);
 * console.log(parser.lastEventId); // what to send as Last-Event-ID when resuming
 * ```
 */
export class SseParserStream extends TransformStream<Uint8Array | string, SseEvent> {
  readonly #parser: SseTextParser;

  constructor(options: SseParserOptions = {}) {
    // ignoreBOM keeps the BOM in the text so the one rule for it (drop only at
    // stream start) applies the same to byte and string chunks.
    const decoder = new TextDecoder("utf-8", { ignoreBOM: true });
    // The parser outlives each call, the controller does not change: keep it.
    let output: TransformStreamDefaultController<SseEvent> | undefined;
    const parser = new SseTextParser((event) => output?.enqueue(event), options.onComment);
    super({
      start(controller) {
        output = controller;
      },
      transform(chunk) {
        if (typeof chunk === "string") {
          // Bytes left half-decoded before a string chunk are a broken
          // character: flush them (as U+FFFD) so order is kept.
          parser.push(decoder.decode() + chunk);
        } else {
          parser.push(decoder.decode(chunk, { stream: true }));
        }
      },
      flush() {
        parser.push(decoder.decode());
        parser.end();
      },
    });
    this.#parser = parser;
  }

  /**
   * The stream's last event ID buffer: the value to send as `Last-Event-ID`
   * when reconnecting. Unlike an event's `id`, it also reflects `id` fields in
   * blocks that had no data (and so dispatched nothing). `undefined` until an
   * `id` field has been seen.
   */
  get lastEventId(): string | undefined {
    return this.#parser.lastEventId;
  }

  /** The last valid `retry` value seen (milliseconds), in any block. */
  get reconnectionTime(): number | undefined {
    return this.#parser.reconnectionTime;
  }
}

/**
 * The incremental parser without a stream around it: bytes (or text) go in
 * as they arrive, the events they complete come out at once, synchronously.
 * The recorder uses it to write each event to the cassette before it
 * forwards the bytes.
 *
 * @example
 * ```ts
 * const reader = new SseReader();
 * reader.push(new TextEncoder().encode("data: a\n"));   // []
 * reader.push(new TextEncoder().encode("\ndata: b\n\n")); // [{ data: "a" }, { data: "b" }]
 * ```
 */
export class SseReader {
  #decoder = new TextDecoder("utf-8", { ignoreBOM: true });
  #events: SseEvent[] = [];
  #parser: SseTextParser;

  constructor(options: SseParserOptions = {}) {
    this.#parser = new SseTextParser((event) => this.#events.push(event), options.onComment);
  }

  /** Feeds bytes or text; returns the events they completed. */
  push(chunk: Uint8Array | string): SseEvent[] {
    this.#parser.push(
      typeof chunk === "string"
        ? this.#decoder.decode() + chunk
        : this.#decoder.decode(chunk, { stream: true }),
    );
    return this.#take();
  }

  /** Ends the stream: text after the last blank line is discarded, as the spec says. */
  end(): SseEvent[] {
    this.#parser.push(this.#decoder.decode());
    this.#parser.end();
    return this.#take();
  }

  /** The stream's last event ID buffer (see {@linkcode SseParserStream.lastEventId}). */
  get lastEventId(): string | undefined {
    return this.#parser.lastEventId;
  }

  /** The last valid `retry` value seen (milliseconds), in any block. */
  get reconnectionTime(): number | undefined {
    return this.#parser.reconnectionTime;
  }

  #take(): SseEvent[] {
    if (this.#events.length === 0) return [];
    const events = this.#events;
    this.#events = [];
    return events;
  }
}

/**
 * Parses a whole event stream held in a string, synchronously. Same rules as
 * {@linkcode SseParserStream}; a final block without its blank line is
 * discarded.
 *
 * @example
 * ```ts
 * parseSseText("id: 1\ndata: hello\n\n"); // [{ data: "hello", id: "1" }]
 * ```
 */
export function parseSseText(text: string, options: SseParserOptions = {}): SseEvent[] {
  const events: SseEvent[] = [];
  const parser = new SseTextParser((event) => events.push(event), options.onComment);
  parser.push(text);
  parser.end();
  return events;
}

export { encodeSseComment, encodeSseEvent, SseEncoderStream } from "./sse_encode.ts";
