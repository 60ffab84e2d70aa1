/**
 * The only thing the replay engine knows about a transport: somewhere to put
 * messages, raw text, and faults that need the wire (a dropped connection, an
 * HTTP status).
 *
 * @module
 */
import type { SseFields } from "../cassette/format.ts";
import type { Fault } from "../faults/types.ts";
import { ErrorCode, errorResponse } from "../jsonrpc/messages.ts";
import type { JsonRpcMessage } from "../jsonrpc/messages.ts";
import type { Trigger } from "./episodes.ts";
import type { Ready } from "./wire.ts";

/** Where a replay session sends what it serves. */
export interface Outlet {
  /**
   * Sends one message; `sse` carries the recorded event framing, when there
   * was one, and `text` the message's exact wire text, when it is not
   * `JSON.stringify(message)` (a recorded frame in the server's own words).
   */
  send(message: JsonRpcMessage, sse?: SseFields, text?: string): Promise<void>;
  /**
   * Sends a recorded answer's exact text, where the outlet needs nothing else
   * of it (stdio): the engine then never parses the recorded answer. An
   * outlet that wraps another and looks at the messages it sends must not
   * pass this on.
   */
  sendText?(text: string, pieces?: readonly string[]): Promise<void>;
  /** Sends non-JSON-RPC text exactly as recorded (or a deliberately broken frame). */
  raw(text: string, sse?: SseFields): Promise<void>;
  /** An SSE event without a JSON-RPC payload (a priming event). */
  event?(data: string, sse: SseFields): Promise<void>;
  /**
   * A fault only the transport can carry out: `disconnect`, `http-status`,
   * `sse-drop`. Resolves true when the request's processing should stop.
   */
  fault(fault: Fault): Promise<boolean>;
  /**
   * Called once a request has matched, before anything is sent for it: an
   * HTTP front end learns which recorded exchange (`trigger.x`) it replays.
   */
  begin?(trigger: Trigger): void;
  /**
   * True where the client may take several messages in one read and answer
   * the last first: an SDK client reading lines (stdio) runs a
   * notification's handler a turn after parsing it but a response's at once,
   * and drops a progress notification whose request has been answered. There
   * the session pings the client between a request's progress and its answer.
   */
  readsAhead?: boolean;
}

/**
 * `outlet`, with the members `overrides` gives in place of its own. Not
 * `{ ...outlet }`: the HTTP front end's outlet is a class instance, whose
 * methods a spread leaves behind, and a request of it whose id text parsing
 * lost (`7.0`) was answered without its recorded exchange or its faults.
 */
export function overriding(outlet: Outlet, overrides: Partial<Outlet>): Outlet {
  return {
    send: (message, sse, text) => outlet.send(message, sse, text),
    sendText: outlet.sendText && ((text, pieces) => outlet.sendText!(text, pieces)),
    raw: (text, sse) => outlet.raw(text, sse),
    event: outlet.event && ((data, sse) => outlet.event!(data, sse)),
    fault: (fault) => outlet.fault(fault),
    begin: outlet.begin && ((trigger) => outlet.begin!(trigger)),
    readsAhead: outlet.readsAhead,
    ...overrides,
  };
}

/** Sends `ready`: its text alone where the outlet takes that, else its message too. */
export function sendReady(out: Outlet, ready: Ready, sse?: SseFields): Promise<void> {
  return out.sendText && ready.text !== undefined && sse === undefined
    ? out.sendText(ready.text, ready.pieces)
    : out.send(ready.message, sse, ready.text);
}

/** Answers a message that is not valid JSON-RPC. */
export async function invalid(out: Outlet, why: string): Promise<void> {
  await out.send(errorResponse(null, ErrorCode.InvalidRequest, `Invalid request: ${why}`));
}
