/**
 * A recorded server frame held as its text alone. A streaming replay keeps
 * answers this way: the parsed tree of a small JSON-RPC answer took about
 * three times the bytes of its text, and replay sends the text; the message
 * is parsed again only where something reads it.
 *
 * @module
 */
import type { SseFields } from "../cassette/format.ts";
import type { JsonRpcMessage } from "../jsonrpc.ts";

/** A recorded frame whose message is parsed from its text on each use. */
export class TextFrame {
  constructor(readonly text: string, readonly t: number, readonly sse?: SseFields) {}

  /** The frame's message, parsed anew (a copy: changing it changes nothing recorded). */
  get msg(): JsonRpcMessage {
    return JSON.parse(this.text) as JsonRpcMessage;
  }
}
