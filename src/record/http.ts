/**
 * The Streamable HTTP (and HTTP+SSE) reverse-proxy recorder. Every request
 * is forwarded to the upstream server and every response streamed back as
 * it arrives (an SSE event reaches the client as soon as the upstream sends
 * it); each exchange is written to the cassette as it goes: the request and
 * response envelopes (credentials named, never written), the messages, and
 * every SSE event with its id, type and retry, on its stream
 * (./http_recorder.ts, ./http_exchange.ts, ./http_sse.ts).
 *
 * The cassette header is deferred until the first exchange that succeeds
 * decides the era: `initialize` answered → legacy, `server/discover`
 * answered offering 2026-07-28 → modern. A probe answered with an error, or
 * with only earlier versions (the client then falls back to `initialize`),
 * decides nothing.
 *
 * The upstream URL's query (a token, often) is never printed: the client is
 * given the recorder's path alone and the recorder adds the query itself
 * (./http_upstream.ts).
 *
 * @module
 */
import { untilInterrupted } from "../runtime/signals.ts";
import { UsageError } from "../errors/errors.ts";
import { serveLocal } from "../http/serve.ts";
import { CassetteWriter } from "../cassette/writer.ts";
import { originFor } from "../http/guard.ts";
import { HttpRecorder } from "./http_recorder.ts";
import { serveBytes } from "./http_bytes.ts";
import { runtime } from "../runtime/mod.ts";
import { Upstream } from "./http_upstream.ts";
import type { FrameRedactor } from "./stdio.ts";

/** The environment variable that picks the HTTP recorder: `bytes` (the default) or `fetch`. */
const ENGINE_ENV = "MCP_CASSETTE_HTTP_RECORDER";

/**
 * Which recorder serves, chosen once per recording: the byte-level one
 * (./http_bytes.ts), which under load costs about what a bare proxy does,
 * unless `MCP_CASSETTE_HTTP_RECORDER=fetch` asks for the fetch-based one
 * (`Deno.serve` or `node:http`, and `fetch`). The byte-level one takes only
 * a plain `http://` upstream with no user name or password in its URL (it
 * speaks no TLS, and would not send them); any other upstream gets the
 * fetch-based one whatever was asked.
 */
function byteLevel(upstream: Upstream, engine: string | undefined): boolean {
  if (engine !== undefined && engine !== "" && engine !== "bytes" && engine !== "fetch") {
    throw new UsageError(`${ENGINE_ENV}=${engine} is not a recorder: bytes or fetch`);
  }
  const { protocol, username, password } = upstream.url;
  return protocol === "http:" && username === "" && password === "" && engine !== "fetch";
}

/** Default cap on a request body, in bytes. */
export const DEFAULT_MAX_BODY_BYTES = 4 * 1024 * 1024;

/** Options of {@linkcode recordHttp}. */
export interface HttpRecordOptions {
  /** The upstream server's URL. */
  url: string;
  output: string;
  /** `HOST:PORT` to listen on (default 127.0.0.1 and a free port). */
  listen?: string;
  redactor?: FrameRedactor;
  force?: boolean;
  /** Called with the URL to give the client, once listening (never with the upstream's query). */
  onListening?: (url: string) => void;
  log?: (line: string) => void;
  /** Resolves when recording should stop (default: SIGINT/SIGTERM). */
  until?: Promise<void>;
  /** Largest request body accepted, in bytes (default 4 MiB). */
  maxBodyBytes?: number;
  /**
   * A bearer token every client request must carry (401 without it),
   * checked before anything else; the client's Authorization is then the
   * recorder's alone and is not sent on to the upstream.
   */
  token?: string;
  /** Idle connections are closed after this many milliseconds (default 30000). */
  idleTimeoutMs?: number;
  /** A request's body must be in within this many ms of its headers (default: the idle timeout). */
  requestTimeoutMs?: number;
  /**
   * Internal: which recorder serves (see {@linkcode byteLevel}); default from
   * `MCP_CASSETTE_HTTP_RECORDER`, else the byte-level one. For the tests
   * that compare the two.
   */
  engine?: "bytes" | "fetch";
  /**
   * Internal: longest a POST waits for its session's GET stream to open on
   * the byte-level path, in ms (default 1000; ./http_bytes_openings.ts).
   */
  holdMs?: number;
}

/**
 * Records over HTTP until SIGINT/SIGTERM (or `until`); resolves with the exit code.
 *
 * @example
 * ```ts
 * const code = await recordHttp({ url: "https://example.com/mcp", output: "s.cassette.jsonl" });
 * ```
 */
export async function recordHttp(options: HttpRecordOptions): Promise<number> {
  const upstream = new Upstream(options.url);
  // Decided before the cassette is opened: a bad value leaves no file behind.
  const bytes = byteLevel(upstream, options.engine ?? runtime.env(ENGINE_ENV));
  let opened = false;
  const writer = await CassetteWriter.open(options.output, {
    force: options.force,
    // Said once, as it happens; the exchanges go on being answered, unrecorded.
    onFailure: (error) => {
      if (!opened) return; // the open throws it
      error.reported = options.log !== undefined;
      options.log?.(
        `mcp-cassette: ${error.message}: the recorder goes on answering; nothing more is recorded`,
      );
    },
  });
  opened = true;
  const active = new HttpRecorder(writer, upstream, {
    redactor: options.redactor,
    log: options.log,
    maxBodyBytes: options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
    ownToken: options.token !== undefined,
  });
  // A port that cannot be had (in use, not ours) leaves no cassette behind, nor its side file.
  const local =
    await (bytes
      ? serveBytes(active, { ...options, maxBodyBytes: active.settings.maxBodyBytes })
      : serveLocal({
        listen: options.listen,
        idleTimeoutMs: options.idleTimeoutMs,
        requestTimeoutMs: options.requestTimeoutMs,
        log: options.log,
        handlerReadsBody: true,
        token: options.token,
      }, (request, info) => active.handle(request, info.bodyDeadline))).catch(async (error) => {
        await writer.abandon();
        throw error;
      });
  if (local.warning) options.log?.(`mcp-cassette: ${local.warning}`);
  active.proxyOrigin = originFor(local.bound.hostname, local.bound.port);
  options.onListening?.(active.proxyOrigin + upstream.clientPath);
  const stop = options.until ?? untilInterrupted();
  await stop;
  await local.close();
  await active.finish();
  return 0;
}
