/**
 * Recorded frames made ready for the live client: the frame's own text with
 * only the id (and a progress token) replaced. The replay never re-serialises
 * what the server said: a frame whose text differs from `JSON.stringify` of
 * its message (other number forms, spacing, key order) goes out as recorded.
 *
 * @module
 */
import type { Json, JsonRpcId, JsonRpcMessage } from "../jsonrpc.ts";
import { memberSpan, spliceSpan } from "../json_text.ts";
import type { Span } from "../json_text.ts";

/** A recorded frame: its message, and its own text when that is not the serialised message. */
export interface Frame {
  msg: JsonRpcMessage;
  text?: string;
}

/** What an outlet sends: the message (for routing) and its exact text, when it has one. */
export interface Ready {
  message: JsonRpcMessage;
  text?: string;
}

/** Where the id sits in each recorded text, found once. */
const idSpans = new WeakMap<Frame, Span | null>();

function idSpanOf(frame: Frame & { text: string }): Span | undefined {
  let span = idSpans.get(frame);
  if (span === undefined) idSpans.set(frame, span = memberSpan(frame.text, ["id"]) ?? null);
  return span ?? undefined;
}

/** The frame with the live id in place of the recorded one. */
export function withLiveId(frame: Frame, id: JsonRpcId): Ready {
  const message = { ...frame.msg, id };
  if (frame.text === undefined) return { message };
  const span = idSpanOf(frame as Frame & { text: string });
  return { message, text: span ? spliceSpan(frame.text, span, JSON.stringify(id)) : frame.text };
}

/** A progress notification carrying the live request's token. */
export function withProgressToken(frame: Frame, token: Json): Ready {
  const params = { ...(frame.msg.params as Record<string, Json>), progressToken: token };
  const message = { ...frame.msg, params };
  if (frame.text === undefined) return { message };
  const span = memberSpan(frame.text, ["params", "progressToken"]);
  return { message, text: span ? spliceSpan(frame.text, span, JSON.stringify(token)) : undefined };
}

/** The frame as recorded. */
export function asRecorded(frame: Frame): Ready {
  return frame.text === undefined
    ? { message: frame.msg }
    : { message: frame.msg, text: frame.text };
}
