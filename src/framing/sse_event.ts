/**
 * The event type the SSE parser and encoder share (types only).
 *
 * @module
 */

/**
 * One dispatched event.
 *
 * `id` is the stream's last event ID at the moment of dispatch, exactly what a
 * browser puts in `MessageEvent.lastEventId`: it carries over from earlier
 * blocks until the server sends another `id` field. It is present only once
 * some `id` field has been seen in the stream (so "never set" and "reset to
 * empty by `id:`" stay distinguishable; the latter gives `id: ""`).
 *
 * `event` is present only when the block named a non-empty type (an absent or
 * empty type means the default, `message`).
 *
 * `retry` is present only when this event's own block carried a valid `retry`
 * field; the spec treats it as a stream setting, so it is also kept on
 * {@linkcode SseParserStream.reconnectionTime}.
 *
 * @example
 * ```ts
 * const event: SseEvent = { data: '{"jsonrpc":"2.0","id":1,"result":{}}', id: "42" };
 * ```
 */
export interface SseEvent {
  data: string;
  event?: string;
  id?: string;
  retry?: number;
}
