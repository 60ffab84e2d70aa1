/**
 * What replaying one POSTed request produces: a JSON body or an SSE stream,
 * as the recording had it. It is the engine's outlet for that request.
 *
 * @module
 */
import type { SseFields } from "../../cassette/format.ts";
import { encodeSseEvent } from "../../framing/sse.ts";
import type { SseEvent } from "../../framing/sse.ts";
import type { Fault } from "../../faults/types.ts";
import { errorReply, jsonResponse } from "../../http/body.ts";
import { ErrorCode } from "../../jsonrpc/messages.ts";
import type { Json, JsonRpcMessage } from "../../jsonrpc/messages.ts";
import type { Trigger } from "../episodes.ts";
import type { Outlet } from "../outlet.ts";
import { MAX_QUEUED_BYTES, streamResponse, tooManyStreams } from "./channel.ts";
import type { SseChannel } from "./channel.ts";
import { sseEvent } from "./events.ts";
import type { RecordedExchange } from "./exchanges.ts";
import type { HttpHost } from "./host.ts";
import type { DetachedStream, LiveSession } from "./live_session.ts";

const DONE: Promise<void> = Promise.resolve();

/**
 * What replaying one POSTed request produces: a JSON body or an SSE stream.
 * It is the engine's {@linkcode Outlet} for that request.
 */
export class Reply implements Outlet {
  readonly response: Promise<Response>;
  #resolve!: (response: Response) => void;
  #settled = false;
  recorded: RecordedExchange | undefined;
  #channel: SseChannel | undefined;
  #stream = 0;
  #respondedOnStream = false;
  #dropAfter: number | undefined;
  #detached: DetachedStream | undefined;
  /** No recording matched (the engine answered a miss, or nothing). */
  missed = true;

  constructor(
    private readonly live: LiveSession | undefined,
    private readonly requestId: Json,
    private readonly headers: Record<string, string>,
    private readonly host: HttpHost,
  ) {
    this.response = new Promise((resolve) => (this.#resolve = resolve));
  }

  #settle(response: Response) {
    if (this.#settled) return;
    this.#settled = true;
    this.#resolve(response);
  }

  #isAnswer(message: JsonRpcMessage): boolean {
    // Request ids are strings or numbers, so identity is equality.
    return message.method === undefined && message.id === this.requestId;
  }

  #status(): number {
    return this.recorded?.response?.status ?? 200;
  }

  #openStream(): SseChannel | undefined {
    if (this.#channel) return this.#channel;
    if (this.#settled) return undefined;
    const channel = this.host.openChannel();
    if (!channel) {
      this.#settle(tooManyStreams(this.requestId));
      return undefined;
    }
    this.#channel = channel;
    this.#stream = this.live?.newStream() ?? 0;
    this.#settle(streamResponse(channel, this.#status(), this.headers));
    return channel;
  }

  /** Writes one event on this request's stream (or where it went after an early close). */
  #write(event: SseEvent) {
    if (this.#detached) {
      const text = encodeSseEvent(event);
      if (this.#detached.target && !this.#detached.target.closed) {
        this.#detached.target.writeText(text);
      } else this.#detached.queue.push(text);
      if (event.id !== undefined) this.live?.log.push({ stream: this.#stream, id: event.id, text });
      return;
    }
    const channel = this.#openStream();
    if (!channel) return;
    const text = channel.write(event);
    if (text && event.id !== undefined) {
      this.live?.log.push({ stream: this.#stream, id: event.id, text });
    }
    // An sse-drop fault cuts the stream here; recorded early closes (SSE polling)
    // happen after the recorded number of events. Either way the rest of the
    // stream waits for the client to resume with GET and Last-Event-ID.
    const recorded = this.recorded;
    const dropped = this.#dropAfter !== undefined && channel.sent >= this.#dropAfter;
    const closedEarly = recorded && !recorded.carriedResponse &&
      recorded.end?.reason === "complete" &&
      recorded.response?.body === "sse" && channel.sent >= recorded.events;
    if (dropped && !this.live) channel.close();
    else if (this.live && (dropped || closedEarly)) this.#detach(channel, this.live);
  }

  #detach(channel: SseChannel, live: LiveSession) {
    channel.close();
    this.#detached = { queue: [], done: false };
    live.detached.set(this.#stream, this.#detached);
  }

  begin(trigger: Trigger): void {
    this.missed = false;
    this.recorded = trigger.exchange;
  }

  send(message: JsonRpcMessage, sse?: SseFields, text?: string): Promise<void> {
    this.#send(message, sse, text ?? JSON.stringify(message));
    return this.#backpressure();
  }

  /** Waits for a slow client once the stream holds more than it may (as stdio does). */
  #backpressure(): Promise<void> {
    const channel = this.#channel;
    return channel && channel.queuedBytes > MAX_QUEUED_BYTES ? channel.drained() : DONE;
  }

  #send(message: JsonRpcMessage, sse: SseFields | undefined, text: string): void {
    const answer = this.#isAnswer(message);
    if (!answer && sse?.stream === "get" && this.live) {
      this.live.sendOnGet(sseEvent(text, sse));
      return;
    }
    const recordedJson = this.recorded?.response?.body === "json";
    if (
      !this.#channel && !this.#detached && answer &&
      (recordedJson || (!this.recorded && sse === undefined))
    ) {
      this.#settle(jsonResponse(text, this.#status(), this.headers));
      return;
    }
    if (answer) this.#respondedOnStream = true;
    this.#write(sseEvent(text, sse));
  }

  raw(text: string, sse?: SseFields): Promise<void> {
    if (!this.#channel && !this.#detached && this.recorded?.response?.body !== "sse") {
      this.#settle(jsonResponse(text, this.#status(), this.headers));
    } else this.#write(sseEvent(text, sse));
    return this.#backpressure();
  }

  event(data: string, sse: SseFields): Promise<void> {
    this.#write(sseEvent(data, sse));
    return this.#backpressure();
  }

  fault(fault: Fault): Promise<boolean> {
    return Promise.resolve(this.#fault(fault));
  }

  #fault(fault: Fault): boolean {
    if (fault.kind === "http-status") {
      if (this.#settled) return false;
      this.#settle(
        new Response(fault.body ?? null, {
          status: fault.status,
          headers: { ...this.headers, ...fault.headers },
        }),
      );
      return true;
    }
    if (fault.kind === "sse-drop") {
      this.#dropAfter = fault.afterEvents;
      return false;
    }
    if (fault.kind === "disconnect") {
      if (this.#channel) this.#channel.error();
      else {
        const channel = this.#openStream();
        channel?.error();
      }
      return true;
    }
    return false;
  }

  /** The request's replay is over: close what was recorded closed, keep open what the client closed. */
  finish(): void {
    const missed = this.missed;
    if (this.#detached) {
      this.#detached.done = true;
      this.#detached.target?.close();
      return;
    }
    if (!this.#settled) {
      if (this.recorded?.end?.reason === "upstream-error") {
        this.#settle(
          errorReply({
            status: 502,
            id: this.requestId,
            code: ErrorCode.InternalError,
            message: `Bad gateway (recorded): ${this.recorded.end.error ?? ""}`,
          }),
        );
        return;
      }
      // Never answered in the recording: the stream stays open until the client leaves.
      this.#openStream();
      if (missed) this.#channel?.close();
      return;
    }
    const keepOpen = !this.#respondedOnStream && this.recorded?.end?.reason === "client-closed";
    if (!keepOpen) this.#channel?.close();
  }
}
