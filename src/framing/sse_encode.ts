/**
 * The other half of ./sse.ts: events written as event-stream text.
 *
 * @module
 */
import type { SseEvent } from "./sse_event.ts";

const LINE_BREAK = /\r\n|\r|\n/;

/**
 * Writes one event as event-stream text: `id`, `event`, `retry`, then one
 * `data:` line per line of `data` (split on CRLF, LF or CR, which the parser
 * rejoins with LF), then the blank line that dispatches it. `data: ""` still
 * writes a `data:` line, since a block without one is never dispatched.
 *
 * Throws `RangeError` for an event no parser could read back: an `id` with a
 * line break or NUL, an `event` with a line break, a `retry` that is not a
 * non-negative integer.
 *
 * @example
 * ```ts
 * encodeSseEvent({ data: "a\nb", id: "7" }); // "id: 7\ndata: a\ndata: b\n\n"
 * ```
 */
export function encodeSseEvent(event: SseEvent): string {
  let text = "";
  if (event.id !== undefined) {
    if (/[\r\n\0]/.test(event.id)) {
      throw new RangeError(`SSE id ${JSON.stringify(event.id)} cannot contain CR, LF or NUL`);
    }
    text += fieldLine("id", event.id);
  }
  if (event.event !== undefined && event.event !== "") {
    if (/[\r\n]/.test(event.event)) {
      throw new RangeError(`SSE event type ${JSON.stringify(event.event)} cannot contain CR or LF`);
    }
    text += fieldLine("event", event.event);
  }
  if (event.retry !== undefined) {
    if (!Number.isSafeInteger(event.retry) || event.retry < 0) {
      throw new RangeError(`SSE retry ${event.retry} is not a non-negative integer`);
    }
    text += fieldLine("retry", String(event.retry));
  }
  for (const line of event.data.split(LINE_BREAK)) text += fieldLine("data", line);
  return text + "\n";
}

/**
 * Writes a comment, one `:` line per line of `text`, with `text` verbatim
 * after the colon: what {@linkcode SseParserOptions.onComment} reports comes
 * back out unchanged. Comments dispatch nothing, so they make good keep-alives.
 *
 * @example
 * ```ts
 * encodeSseComment(" keep-alive"); // ": keep-alive\n"
 * ```
 */
export function encodeSseComment(text: string): string {
  return text.split(LINE_BREAK).map((line) => `:${line}\n`).join("");
}

/** `name: value`, or a bare `name:` for an empty value (no trailing space). */
function fieldLine(name: string, value: string): string {
  return value === "" ? `${name}:\n` : `${name}: ${value}\n`;
}

/**
 * Encodes {@linkcode SseEvent}s to UTF-8 event-stream bytes, one chunk per
 * event, so each reaches the client as soon as it is written.
 *
 * @example
 * ```ts
 * const body = events.pipeThrough(new SseEncoderStream());
 * return new Response(body, { headers: { "content-type": "text/event-stream" } });
 * ```
 */
export class SseEncoderStream extends TransformStream<SseEvent, Uint8Array> {
  constructor() {
    const encoder = new TextEncoder();
    super({
      transform(event, controller) {
        controller.enqueue(encoder.encode(encodeSseEvent(event)));
      },
    });
  }
}
