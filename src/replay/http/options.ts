/**
 * The options of the HTTP replay server.
 *
 * @module
 */

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
}
