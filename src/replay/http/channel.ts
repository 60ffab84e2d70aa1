/**
 * An SSE response body the replay server writes events into one at a time,
 * so each event reaches the client as its own write.
 *
 * @module
 */
import { encodeSseEvent } from "../../framing/sse.ts";
import type { SseEvent } from "../../framing/sse.ts";

const encoder = new TextEncoder();

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

  constructor() {
    this.body = new ReadableStream<Uint8Array>({
      start: (controller) => {
        this.#controller = controller;
      },
      cancel: () => this.#markClosed(),
    }, { highWaterMark: 0 });
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
    for (const fn of this.#onClose.splice(0)) fn();
  }
}
