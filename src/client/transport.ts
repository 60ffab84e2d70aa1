/**
 * The seam between our MCP client and a wire: ./stdio.ts and ./http.ts
 * implement it, and ./target.ts picks one for a command's server.
 *
 * @module
 */
import type { Json } from "../jsonrpc/messages.ts";

/** A frame that arrived but was not JSON (a banner, a log line on stdout). */
export interface RawFrame {
  raw: string;
}

/** What a transport yields: a parsed JSON value, or a line that did not parse. */
export type IncomingFrame = Json | RawFrame;

/** True when `frame` is a {@linkcode RawFrame}. */
export function isRawFrame(frame: IncomingFrame): frame is RawFrame {
  return frame !== null && typeof frame === "object" && !Array.isArray(frame) &&
    typeof (frame as { raw?: unknown }).raw === "string" && Object.keys(frame).length === 1;
}

/**
 * A bidirectional message pipe to one MCP server.
 *
 * `messages` is iterated exactly once, by the connection; it ends when the
 * server goes away. `send` rejects when the message cannot be delivered.
 * `describe` names the server in error messages (`the command "x"`, a URL).
 */
export interface ClientTransport {
  /** Delivers one JSON-RPC message to the server. */
  send(message: Json): Promise<void>;
  /** Everything the server sends, in order; ends when the server is gone. */
  readonly messages: AsyncIterable<IncomingFrame>;
  /** Stops the server (stdio) or ends the session (HTTP). Idempotent. */
  close(): Promise<void>;
  /**
   * Resolves when the transport has ended by itself (exit code for a child,
   * or undefined); rejects with a {@linkcode ServerUnreachableError} when the
   * server could not be started or reached at all.
   */
  readonly closed: Promise<number | undefined>;
  /** A short human name of the server, for messages. */
  readonly describe: string;
}
