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
 * answered → modern. A probe answered with an error decides nothing.
 *
 * The upstream URL's query (a token, often) is never printed: the client is
 * given the recorder's path alone and the recorder adds the query itself
 * (./http_upstream.ts).
 *
 * @module
 */
import { untilInterrupted } from "../runtime/signals.ts";
import { CassetteWriter } from "../cassette/writer.ts";
import { ErrorCode } from "../jsonrpc.ts";
import { runtime } from "../runtime/mod.ts";
import { checkHostAndOrigin, exposureWarning, originFor, parseListen } from "../http/guard.ts";
import { errorReply } from "../http/body.ts";
import { HttpRecorder } from "./http_recorder.ts";
import { Upstream } from "./http_upstream.ts";
import type { FrameRedactor } from "./stdio.ts";

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
  /** Idle connections are closed after this many milliseconds (default 30000). */
  idleTimeoutMs?: number;
  /** A request's body must be in within this many ms of its headers (default: the idle timeout). */
  requestTimeoutMs?: number;
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
  const bound = parseListen(options.listen);
  const warning = exposureWarning(bound.hostname);
  if (warning) options.log?.(`mcp-cassette: ${warning}`);
  const writer = await CassetteWriter.open(options.output, { followSymlink: options.force });
  const active = new HttpRecorder(writer, upstream, {
    redactor: options.redactor,
    log: options.log,
    maxBodyBytes: options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
  });
  const server = await runtime.serve(
    {
      hostname: bound.hostname,
      port: bound.port,
      maxHeaderBytes: 16 * 1024,
      idleTimeoutMs: options.idleTimeoutMs ?? 30_000,
      requestTimeoutMs: options.requestTimeoutMs,
      onRequestCut: ({ remoteAddress, method, path }) =>
        options.log?.(
          `cut a ${method} ${path} from ${remoteAddress}: its body did not arrive in time (408)`,
        ),
      exposed: warning !== undefined,
    },
    async (request) => {
      const refused = checkHostAndOrigin(request, { hostname: bound.hostname, port: server.port });
      if (refused) {
        return errorReply({
          status: refused.status,
          code: ErrorCode.InvalidRequest,
          message: refused.message,
        });
      }
      return await active.handle(request);
    },
  );
  active.proxyOrigin = originFor(bound.hostname, server.port);
  options.onListening?.(active.proxyOrigin + upstream.clientPath);
  const stop = options.until ?? untilInterrupted();
  await stop;
  const cut = server.requestsCut?.() ?? 0;
  if (cut > 0) options.log?.(`${cut} request(s) cut: their body did not arrive in time`);
  await server.close();
  await active.finish();
  return 0;
}
