/**
 * The Streamable HTTP (and HTTP+SSE) reverse-proxy recorder.
 *
 * @module
 */
import { UsageError } from "../errors.ts";
import type { FrameRedactor } from "./stdio.ts";

/** Options of {@linkcode recordHttp}. */
export interface HttpRecordOptions {
  /** The upstream server's URL. */
  url: string;
  output: string;
  /** `HOST:PORT` to listen on (default 127.0.0.1 and a free port). */
  listen?: string;
  redactor?: FrameRedactor;
  force?: boolean;
  /** Called with the URL to give the client, once listening. */
  onListening?: (url: string) => void;
  log?: (line: string) => void;
}

/** Records over HTTP until SIGINT/SIGTERM; resolves with the exit code. */
export function recordHttp(_options: HttpRecordOptions): Promise<number> {
  return Promise.reject(new UsageError("record --url is not built yet"));
}
