/**
 * Recorded frames made ready for the live client: the frame's own text with
 * only the id (and a progress token) replaced. The replay never re-serialises
 * what the server said: a frame whose text differs from `JSON.stringify` of
 * its message (other number forms, spacing, key order) goes out as recorded.
 *
 * @module
 */
import type { Json, JsonRpcId, JsonRpcMessage } from "../jsonrpc/messages.ts";
import { memberSpan, spliceSpan } from "../json/text.ts";

/** A recorded frame: its message, and its own text when that is not the serialised message. */
export interface Frame {
  msg: JsonRpcMessage;
  text?: string;
  /**
   * Set on a frame read back from the cassette file on each use: its id slot
   * is kept only once it answers a second time. A slot holds the whole text,
   * and kept for every answer a long replay sends it would bring them all
   * back into memory. A disk trigger (./disk_trigger.ts) makes its answer's
   * frame anew each time it is read, so its answers take the first-answer
   * path every time: one read, one parse, one split, nothing kept.
   */
  readonly fromDisk?: true;
}

/** What an outlet sends: the message (for routing) and its exact text, when it has one. */
export interface Ready {
  message: JsonRpcMessage;
  text?: string;
  /**
   * The text in the parts it was joined from, when it was: a recorded
   * answer's text around its new id. An outlet that writes them one by one
   * never copies a large answer into one flat string.
   */
  pieces?: readonly string[];
}

/**
 * A recorded answer's text split once around its id value: the live text is
 * `before + JSON.stringify(id) + after`, with no scan or re-serialising per
 * answer. A frame without its own text, once it answers a second time, is
 * split from `JSON.stringify` of its message, which is what the outlet would
 * have written (the spread in {@linkcode withLiveId} keeps the id where it was).
 */
interface IdSlot {
  before: string;
  after: string;
}

/** Each frame's slot, found at its first use; null when its text has no top-level id. */
const idSlots = new WeakMap<Frame, IdSlot | null | typeof ONCE>();
/**
 * A frame without its own text answered once so far: most frames are
 * answered once per replay, and for those serialising the message as the
 * outlet does costs less than serialising, scanning and splitting it.
 */
const ONCE = 0;

function idSlotOf(frame: Frame): IdSlot | null {
  const known = idSlots.get(frame);
  if (known === null || (known !== undefined && known !== ONCE)) return known;
  if (frame.text === undefined && known === undefined) {
    idSlots.set(frame, ONCE);
    return null;
  }
  const slot = slotIn(frame.text ?? ("id" in frame.msg ? JSON.stringify(frame.msg) : undefined));
  idSlots.set(frame, slot);
  return slot;
}

/** The slot's text with `id` in it, as its three parts. */
function withId(slot: IdSlot, id: JsonRpcId): readonly string[] {
  return [slot.before, JSON.stringify(id), slot.after];
}

/** The text split around its top-level id, or null when it has none. */
function slotIn(text: string | undefined): IdSlot | null {
  const span = text === undefined ? undefined : memberSpan(text, ["id"]);
  if (text === undefined || !span) return null;
  return { before: text.slice(0, span.start), after: text.slice(span.end) };
}

/** The frame with the live id in place of the recorded one. */
export function withLiveId(frame: Frame, id: JsonRpcId): Ready {
  if (frame.fromDisk && !idSlots.has(frame)) {
    idSlots.set(frame, ONCE);
    return withLiveIdOnce(frame.text!, id);
  }
  const slot = idSlotOf(frame);
  if (slot) return lazyReady(() => ({ ...frame.msg, id }), withId(slot, id));
  const message = { ...frame.msg, id };
  return frame.text === undefined ? { message } : { message, text: frame.text };
}

/** `text` with the live id, from one read of a frame on disk. */
function withLiveIdOnce(text: string, id: JsonRpcId): Ready {
  const slot = slotIn(text);
  return lazyReady(
    () => ({ ...JSON.parse(text) as JsonRpcMessage, id }),
    slot ? withId(slot, id) : [text],
  );
}

/**
 * An answer whose message is parsed only when an outlet asks for it: the
 * stdio outlet writes the text, and parsing each recorded answer again for
 * nothing took about a tenth of the replay's work per call
 * (scripts/bench/stdio_cpu.ts's profile: `msg` under `withLiveId`).
 */
function lazyReady(message: () => JsonRpcMessage, pieces: readonly string[]): Ready {
  let parsed: JsonRpcMessage | undefined;
  return {
    get message() {
      return parsed ??= message();
    },
    text: joined(pieces),
    pieces,
  };
}

/** The pieces as one string, without copying them: `+` makes a rope, `join` a flat copy. */
function joined(pieces: readonly string[]): string {
  let text = "";
  for (const piece of pieces) text += piece;
  return text;
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
