/**
 * Recorded frames held without their parsed tree. A streaming replay keeps
 * answers this way: the parsed tree of a small JSON-RPC answer took about
 * three times the bytes of its text, and replay sends the text; the message
 * is parsed again only where something reads it. A frame left in the file
 * holds not even its text (../cassette/frame_store.ts).
 *
 * @module
 */
import type { SseFields } from "../cassette/format.ts";
import type { FramePlace, FrameStore } from "../cassette/frame_store.ts";
import type { JsonRpcMessage } from "../jsonrpc/messages.ts";

/** A recorded frame whose message is parsed from its text on each use. */
export class TextFrame {
  constructor(readonly text: string, readonly t: number, readonly sse?: SseFields) {}

  /** The frame's message, parsed anew (a copy: changing it changes nothing recorded). */
  get msg(): JsonRpcMessage {
    return JSON.parse(this.text) as JsonRpcMessage;
  }
}

/** A recorded message read back from the cassette file on each use. */
export class DiskText {
  readonly #start: number;
  readonly #end: number;
  readonly #check: number;

  constructor(
    private readonly store: FrameStore,
    place: FramePlace,
    /** The frame's line in the cassette, for the error when the file changed. */
    readonly line: number,
  ) {
    this.#start = place.start;
    this.#end = place.end;
    this.#check = place.check;
  }

  /** The frame's text, as the file holds it. */
  get text(): string {
    return this.store.text(this.#start, this.#end, this.#check, this.line);
  }

  /** The frame's message, parsed anew. */
  get msg(): JsonRpcMessage {
    return JSON.parse(this.text) as JsonRpcMessage;
  }
}

/** A recorded server frame read back from the cassette file on each use. */
export class DiskFrame extends DiskText {
  constructor(
    store: FrameStore,
    place: FramePlace,
    line: number,
    readonly t: number,
    readonly sse?: SseFields,
  ) {
    super(store, place, line);
  }

  /** Read anew on each use: an answer made from it is not worth keeping (../replay/wire.ts). */
  get fromDisk(): true {
    return true;
  }
}
