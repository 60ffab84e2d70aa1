/**
 * The SSE side of the HTTP recorder: a response stream relayed to the
 * client unchanged, each event recorded (with its id, type and retry, on its
 * stream) before its bytes go on.
 *
 * @module
 */
import type { Direction, Entry, SseFields } from "../cassette/format.ts";
import type { Json, JsonObject } from "../jsonrpc/messages.ts";
import type { SseEvent } from "../framing/sse.ts";
import { SseSplitter } from "../http/sse_splitter.ts";
import { isJsonRpc, messagesOf, parseJson } from "./http_messages.ts";

/** One client session as the HTTP recorder tracks it. */
export interface LiveSession {
  name: string;
  sessionId?: string;
  started: boolean;
  ended: boolean;
}

/** How an exchange ended. */
export type EndReason = "complete" | "client-closed" | "upstream-closed";

/** What of the recorder the SSE relay uses. */
export interface SseHost {
  append(entry: Entry): void;
  /** Writes what was appended: done before the bytes it records go on. */
  flush(): void;
  t(): number;
  /** Records one message; `text` is the frame's own text when there is one. */
  message(
    msg: Json,
    dir: Direction,
    x: number,
    session?: LiveSession,
    sse?: SseFields,
    text?: string,
  ): void;
  /** Records what an answer tells about the era. */
  observeAnswer(message: JsonObject, requests: Map<string, JsonObject>): void;
  /** An `endpoint` event was seen: the upstream speaks HTTP+SSE, and this path is the session's. */
  endpoint(session: LiveSession | undefined, data: string): void;
  /** The bytes to send on, with the upstream's origin in an `endpoint` event made ours. */
  rewrite(bytes: Uint8Array): Uint8Array;
}

/** One SSE response being relayed. */
export interface SseExchange {
  stream: "post" | "get";
  x: number;
  session?: LiveSession;
  /** The requests of this exchange, by id. */
  requests: Map<string, JsonObject>;
  end(reason: EndReason, error?: string): void;
}

/**
 * The recording of one SSE response: the bytes of the stream go in as they
 * arrive, each complete event is recorded, and the end once.
 */
export class SseRecording {
  #splitter = new SseSplitter();
  #ended = false;

  constructor(readonly host: SseHost, readonly exchange: SseExchange) {}

  /** Records the events these bytes complete (the caller flushes before passing them on). */
  push(bytes: Uint8Array): void {
    for (const event of this.#splitter.push(bytes)) recordEvent(this.host, event, this.exchange);
  }

  /**
   * Records what the stream left unfinished (unless the client left: what
   * it never received is not kept), then how it ended, and flushes.
   */
  end(reason: EndReason, error?: string): void {
    if (this.#ended) return;
    this.#ended = true;
    if (reason !== "client-closed") {
      for (const event of this.#splitter.end()) recordEvent(this.host, event, this.exchange);
    }
    this.exchange.end(reason, error);
    this.host.flush();
  }
}

/** Streams SSE through unchanged, recording each event before its bytes go on. */
export function relaySse(
  host: SseHost,
  body: ReadableStream<Uint8Array>,
  exchange: SseExchange,
): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  const recording = new SseRecording(host, exchange);
  return new ReadableStream<Uint8Array>({
    pull: async (controller) => {
      try {
        const { done, value } = await reader.read();
        if (done) {
          recording.end("complete");
          controller.close();
          return;
        }
        recording.push(value);
        host.flush();
        controller.enqueue(host.rewrite(value));
      } catch (error) {
        recording.end("upstream-closed", (error as Error).message);
        controller.close();
      }
    },
    cancel: async () => {
      recording.end("client-closed");
      await reader.cancel().catch(() => {});
    },
  }, { highWaterMark: 0 });
}

function recordEvent(host: SseHost, event: SseEvent, exchange: SseExchange): void {
  const { stream, x, session } = exchange;
  const sse: SseFields = { stream };
  if (event.id !== undefined) sse.id = event.id;
  if (event.event !== undefined) sse.event = event.event;
  if (event.retry !== undefined) sse.retry = event.retry;
  const parsed = event.event === "endpoint" ? undefined : parseJson(event.data);
  if (event.event === "endpoint") host.endpoint(session, event.data);
  if (parsed !== undefined && isJsonRpc(parsed)) {
    host.message(parsed, "s2c", x, session, sse, event.data);
    for (const message of messagesOf(parsed)) host.observeAnswer(message, exchange.requests);
    return;
  }
  host.append({
    type: "sse-event",
    t: host.t(),
    ...(session ? { session: session.name } : {}),
    x,
    sse,
    data: event.data,
  });
}
