/**
 * One live client session of the legacy era over Streamable HTTP: its GET
 * stream, the recorded standalone messages due on it, the streams closed
 * early that a GET with Last-Event-ID resumes, and the resumption log.
 *
 * @module
 */
import type { SseEvent } from "../../framing/sse.ts";
import type { RecordedSession } from "../episodes.ts";
import type { ReplaySession } from "../session.ts";
import type { SseChannel } from "./channel.ts";
import { stepEvent } from "./events.ts";

/** A stream closed early whose remaining events wait for a resumption. */
export interface DetachedStream {
  queue: string[];
  target?: SseChannel;
  done: boolean;
}

/** One live client session of the legacy era. */
export class LiveSession {
  ended = false;
  /** Client requests and notifications received (the standalone stream's clock). */
  triggers = 0;
  get: SseChannel | undefined;
  #standaloneSent = 0;
  /** Every event with an id sent in this session, for Last-Event-ID. */
  log: { stream: number; id: string; text: string }[] = [];
  /** Streams closed early (recorded that way) whose remaining events wait for a GET resumption. */
  detached = new Map<number, DetachedStream>();
  #streams = 0;

  /** The session's response headers, made once rather than for every response (never mutated). */
  readonly headers: Record<string, string>;

  constructor(readonly replay: ReplaySession, readonly sessionId: string | undefined) {
    this.headers = Object.freeze<Record<string, string>>(
      sessionId ? { "mcp-session-id": sessionId } : {},
    );
  }

  newStream(): number {
    return ++this.#streams;
  }

  get recording(): RecordedSession | undefined {
    return this.replay.recording;
  }

  /** Sends the recorded standalone messages now due. */
  pump(): void {
    const standalone = this.recording?.standalone ?? [];
    while (this.#standaloneSent < standalone.length && this.get && !this.get.closed) {
      const { afterTrigger, step } = standalone[this.#standaloneSent];
      if (afterTrigger > this.triggers) return;
      this.#standaloneSent++;
      this.sendOnGet(stepEvent(step));
    }
  }

  sendOnGet(event: SseEvent | undefined): void {
    if (!event || !this.get || this.get.closed) return;
    const text = this.get.write(event);
    if (text && event.id !== undefined) this.log.push({ stream: 0, id: event.id, text });
  }

  close(): void {
    this.ended = true;
    this.get?.close();
    this.replay.close();
  }
}
