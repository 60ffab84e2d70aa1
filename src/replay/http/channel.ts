/**
 * An SSE response body the replay server writes events into one at a time,
 * so each event reaches the client as its own write.
 *
 * @module
 */
import { encodeSseEvent } from "../../framing/sse.ts";
import { errorReply } from "../../http/body.ts";
import { ErrorCode } from "../../jsonrpc/messages.ts";
import type { Json } from "../../jsonrpc/messages.ts";
import type { SseEvent } from "../../framing/sse.ts";

const encoder = new TextEncoder();

/** Bytes a stream may hold for a client that has not read them before the replay waits. */
export const MAX_QUEUED_BYTES = 1 << 20;

/** A live event stream to one client. */
export class SseChannel {
  readonly body: ReadableStream<Uint8Array>;
  #controller!: ReadableStreamDefaultController<Uint8Array>;
  #closed = false;
  #onClose: (() => void)[] = [];
  /** Events written so far. */
  sent = 0;
  /** The id of the last event written that had one. */
  lastId: string | undefined;

  /** Resolved when the client has taken everything written (or gone). */
  #drained: (() => void)[] = [];

  constructor() {
    this.body = new ReadableStream<Uint8Array>({
      start: (controller) => {
        this.#controller = controller;
      },
      // Called when the client reads and nothing is queued: all it was sent is taken.
      pull: () => this.#release(),
      cancel: () => this.#markClosed(),
    }, { highWaterMark: 0, size: (chunk) => chunk?.byteLength ?? 0 });
  }

  /** Bytes written that the client has not read yet. */
  get queuedBytes(): number {
    return Math.max(0, -(this.#controller.desiredSize ?? 0));
  }

  /**
   * Resolves once the client has read everything written so far (at once
   * when nothing waits): the replay awaits it before writing more than
   * {@linkcode MAX_QUEUED_BYTES} ahead of a slow client.
   */
  drained(): Promise<void> {
    if (this.#closed || this.queuedBytes === 0) return Promise.resolve();
    return new Promise((resolve) => this.#drained.push(resolve));
  }

  #release() {
    for (const resolve of this.#drained.splice(0)) resolve();
  }

  /** True once closed by either side. */
  get closed(): boolean {
    return this.#closed;
  }

  /** Runs `fn` when the stream closes (the client went away, or we closed it). */
  onClose(fn: () => void): void {
    if (this.#closed) fn();
    else this.#onClose.push(fn);
  }

  /** Writes one event; returns its encoded text (for the resumption log). */
  write(event: SseEvent): string | undefined {
    if (this.#closed) return undefined;
    const text = encodeSseEvent(event);
    this.writeText(text);
    this.sent++;
    if (event.id !== undefined) this.lastId = event.id;
    return text;
  }

  /** Writes pre-encoded event text. */
  writeText(text: string): void {
    if (this.#closed) return;
    try {
      this.#controller.enqueue(encoder.encode(text));
    } catch {
      this.#markClosed();
    }
  }

  /** Ends the stream. */
  close(): void {
    if (this.#closed) return;
    try {
      this.#controller.close();
    } catch {
      // Already cancelled.
    }
    this.#markClosed();
  }

  /** Breaks the stream (a `disconnect` fault). */
  error(): void {
    if (this.#closed) return;
    try {
      this.#controller.error(new Error("disconnected by a fault"));
    } catch {
      // Already gone.
    }
    this.#markClosed();
  }

  #markClosed() {
    if (this.#closed) return;
    this.#closed = true;
    this.#release();
    for (const fn of this.#onClose.splice(0)) fn();
  }
}

/**
 * The response that carries `channel` to the client: an event stream with
 * `headers` (the session's, the recorded exchange's) and no caching or
 * proxy buffering in the way.
 */
export function streamResponse(
  channel: SseChannel,
  status = 200,
  headers: Record<string, string> = {},
): Response {
  return new Response(channel.body, {
    status,
    headers: {
      ...headers,
      "content-type": "text/event-stream",
      "cache-control": "no-cache",
      "x-accel-buffering": "no",
    },
  });
}

/** The refusal when the most SSE streams allowed are open (`--max-streams`). */
export function tooManyStreams(id: Json = null): Response {
  return errorReply({
    status: 503,
    id,
    code: ErrorCode.InternalError,
    message: "Too many open streams",
  });
}
