/**
 * The Streamable HTTP (and HTTP+SSE) front end of replay.
 *
 * @module
 */
import { UsageError } from "../errors.ts";
import type { ReplayEngine } from "./engine.ts";
import type { ReplayReport } from "./report.ts";

/** Options of {@linkcode serveHttp}. */
export interface HttpServeOptions {
  /** `HOST:PORT`; port 0 picks a free one. */
  listen: string;
  /** Called with the URL to give the client, once listening. */
  onListening?: (url: string) => void;
  /** Resolves when the server should stop (default: SIGINT/SIGTERM). */
  until?: Promise<void>;
  log?: (line: string) => void;
}

/** Serves the engine's cassette over HTTP until told to stop; resolves with the report. */
export function serveHttp(_engine: ReplayEngine, _options: HttpServeOptions): Promise<ReplayReport> {
  return Promise.reject(new UsageError("replay --listen is not built yet"));
}
