/**
 * The SSE reader the recorder and the HTTP client use: the one incremental
 * parser of ../framing/sse.ts, synchronous, so the cassette never lags
 * behind what the client has seen.
 *
 * @module
 */
import { SseReader } from "../framing/sse.ts";

/**
 * Splits an event stream into complete events as bytes arrive
 * ({@linkcode SseReader}, with the stream's `retry` under its old name).
 *
 * @example
 * ```ts
 * const splitter = new SseSplitter();
 * splitter.push(new TextEncoder().encode("data: a\n"));   // []
 * splitter.push(new TextEncoder().encode("\ndata: b\n\n")); // [{data:"a"},{data:"b"}]
 * ```
 */
export class SseSplitter extends SseReader {
  /** The stream's reconnection time, from the latest valid `retry` field. */
  get retry(): number | undefined {
    return this.reconnectionTime;
  }
}
