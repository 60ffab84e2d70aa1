/**
 * An incremental, synchronous SSE event reader for the recorder: bytes go in
 * as they arrive, complete events come out before the bytes are forwarded,
 * so the cassette never lags behind what the client has seen. Parsing of
 * each complete block is delegated to {@linkcode parseSseText}.
 *
 * @module
 */
import { parseSseText } from "../framing/sse.ts";
import type { SseEvent } from "../framing/sse.ts";

/** A line break followed by another line break: the end of an event block. */
const BLOCK_END = /(\r\n|\r|\n)(\r\n|\r|\n)/g;

/**
 * Splits an event stream into complete event blocks as bytes arrive.
 *
 * @example
 * ```ts
 * const splitter = new SseSplitter();
 * splitter.push(new TextEncoder().encode("data: a\n"));   // []
 * splitter.push(new TextEncoder().encode("\ndata: b\n\n")); // [{data:"a"},{data:"b"}]
 * ```
 */
export class SseSplitter {
  #decoder = new TextDecoder();
  #buffer = "";
  #first = true;
  #lastId: string | undefined;
  /** The stream's reconnection time, from the latest valid `retry` field. */
  retry: number | undefined;

  /** Feeds bytes; returns the events they completed. */
  push(bytes: Uint8Array): SseEvent[] {
    this.#buffer += this.#decoder.decode(bytes, { stream: true });
    return this.#drain(false);
  }

  /** Ends the stream: text after the last blank line is discarded, as the spec says. */
  end(): SseEvent[] {
    this.#buffer += this.#decoder.decode();
    return this.#drain(true);
  }

  #drain(final: boolean): SseEvent[] {
    let cut = -1;
    for (const match of this.#buffer.matchAll(BLOCK_END)) {
      const end = match.index! + match[0].length;
      // A CR at the very end may be the first half of a CRLF still in flight.
      if (!final && end === this.#buffer.length && match[0].endsWith("\r")) break;
      // "\r\n" split as "\r" + "\n" must not count as two breaks.
      if (match[0] === "\r\n" && match[1] === "\r" && match[2] === "\n") continue;
      cut = end;
    }
    if (cut < 0) return [];
    let block = this.#buffer.slice(0, cut);
    this.#buffer = this.#buffer.slice(cut);
    if (!this.#first && block.startsWith("\uFEFF")) block = "\n" + block; // only the stream's first BOM is dropped
    this.#first = false;
    const events = parseSseText(block);
    for (const event of events) {
      if (event.retry !== undefined) this.retry = event.retry;
      // The last event ID outlives its block (the spec's "last event ID buffer").
      if (event.id !== undefined) this.#lastId = event.id;
      else if (this.#lastId !== undefined) event.id = this.#lastId;
    }
    return events;
  }
}
