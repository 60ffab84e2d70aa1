/**
 * Recorded frames as SSE events, with the recorded event framing.
 *
 * @module
 */
import type { SseFields } from "../../cassette/format.ts";
import type { SseEvent } from "../../framing/sse.ts";
import type { Step } from "../episodes.ts";

/** The SSE event for a recorded step, as recorded. */
export function stepEvent(step: Step): SseEvent | undefined {
  if (step.kind === "sse-event") return sseEvent(step.data, step.sse);
  if (step.kind === "raw") return sseEvent(step.text, step.sse);
  return sseEvent(step.text ?? JSON.stringify(step.msg), step.sse);
}

/** An SSE event carrying `data`, framed as recorded (`message` when it was not an event). */
export function sseEvent(data: string, sse: SseFields | undefined): SseEvent {
  const event: SseEvent = { data };
  if (sse?.id !== undefined) event.id = sse.id;
  if (sse === undefined) event.event = "message";
  else if (sse.event !== undefined) event.event = sse.event;
  if (sse?.retry !== undefined) event.retry = sse.retry;
  return event;
}
