/**
 * The options of the HTTP replay server.
 *
 * @module
 */

import type { BodyDeadline, RawHeaders } from "../../runtime/mod.ts";
import type { ReplayEngine } from "../engine.ts";

/** How the HTTP replay answers one request (`HttpReplayServer.handle`'s shape). */
export type HttpHandle = (
  request: Request,
  deadline?: BodyDeadline,
  raw?: RawHeaders,
) => Promise<Response>;

/** Options of `serveHttp` and `replayHandler`. */
export interface HttpServeOptions {
  /** `HOST:PORT`; port 0 picks a free one (`serveHttp` only). */
  listen?: string;
  /** Called with the URL to give the client, once listening. */
  onListening?: (url: string) => void;
  /** Resolves when the server should stop (default: SIGINT/SIGTERM). */
  until?: Promise<void>;
  log?: (line: string) => void;
  /** Largest request body accepted, in bytes (default 4 MiB). */
  maxBodyBytes?: number;
  /** Most SSE streams open at once (default 1024). */
  maxStreams?: number;
  /** Idle connections are closed after this many milliseconds (default 30000). */
  idleTimeoutMs?: number;
  /**
   * A bearer token every request must carry (401 without it), checked
   * before anything else (`serveHttp` only).
   */
  token?: string;
  /**
   * `--control`: answers the requests under `/__cassette/`, after the same
   * Host/Origin guard as the MCP endpoint (./control.ts). Without it those
   * paths are the MCP endpoint's, which answers 404.
   */
  control?: HttpHandle;
  /**
   * How requests reach the server (`--control` routes a session to the
   * cassette it began on, ./control.ts): given the first server's handler,
   * and how to serve another engine the same way.
   */
  route?: (first: HttpHandle, serve: (engine: ReplayEngine) => HttpHandle) => HttpHandle;
}
