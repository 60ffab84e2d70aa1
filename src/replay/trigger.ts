/**
 * What replay serves a client message with: the recorded trigger (a request
 * or notification) and the server's steps around it. Its own module so that
 * the two ways of holding a trigger (./episodes.ts, ./disk_trigger.ts) share
 * one shape.
 *
 * @module
 */
import type { SseFields } from "../cassette/format.ts";
import type { JsonRpcMessage } from "../jsonrpc/messages.ts";
import type { HeldMessage, RequestKey } from "../match/fingerprint.ts";
import type { RecordedExchange } from "./http/exchanges.ts";

/** Something the server sent while serving a trigger. */
export type Step =
  | { kind: "message"; msg: JsonRpcMessage; t: number; sse?: SseFields; text?: string }
  | {
    kind: "server-request";
    msg: JsonRpcMessage;
    t: number;
    sse?: SseFields;
    /** The frame's own text, when it differs from the serialised `msg`. */
    text?: string;
    /** What the client answered in the recording, if it did. */
    answer?: { msg: JsonRpcMessage; t: number };
  }
  | { kind: "raw"; text: string; t: number; sse?: SseFields }
  | { kind: "sse-event"; data: string; t: number; sse: SseFields };

/** A client request or notification and what the server did about it. */
export interface Trigger {
  /** Position in the session, for reports. */
  index: number;
  /** Cassette line of the client message. */
  line: number;
  /** The client message: in memory, or read back from the cassette file. */
  request: HeldMessage;
  key: RequestKey;
  t: number;
  isRequest: boolean;
  /** Server messages before the response (or, for a notification, all of them). */
  steps: Step[];
  /** The recorded response (result or error); undefined when never answered. */
  response?: RecordedFrame;
  /**
   * The client gave up on this request in the recording (cancelled it, or
   * closed its HTTP exchange), so a missing answer is what was recorded.
   */
  cancelled?: boolean;
  /**
   * False for a request that cannot change the server's state: a list, a
   * read, a ping, or a call of a tool the recorded `tools/list` marks
   * `readOnlyHint: true` (see ../match/answer_book.ts, causal order).
   */
  changesState?: boolean;
  /** Server messages after the response that no later client message explains. */
  after: Step[];
  /** The HTTP exchange number, when recorded over HTTP. */
  x?: number;
  /** That exchange: how its response came and ended (HTTP replay answers the same way). */
  exchange?: RecordedExchange;
  /** Set when `new_episodes` appended this trigger. */
  appended?: boolean;
  /** Set when the cassette marks the request `optional`: it may go unplayed. */
  optional?: boolean;
}

/** A recorded server frame: its message, and its own text where that differs from the serialised message. */
export interface RecordedFrame {
  msg: JsonRpcMessage;
  t: number;
  sse?: SseFields;
  text?: string;
}

/** The steps of a trigger with none (frozen: a list of its own is made at the first step). */
export const NO_STEPS: Step[] = Object.freeze([]) as unknown as Step[];
