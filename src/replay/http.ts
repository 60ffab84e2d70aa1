/**
 * The Streamable HTTP front end of replay. It serves the era the cassette
 * was recorded in (`engine.era`), never a guess:
 *
 * - legacy (2025-03-26 … 2025-11-25): ./http/legacy.ts;
 * - modern (2026-07-28): ./http/modern.ts;
 * - a cassette recorded on the old HTTP+SSE transport (header
 *   `transport: "sse"`): ./http/legacy_sse.ts.
 *
 * {@linkcode replayHandler} is the server as a fetch-shaped function, for
 * tests that drive it in process and for users who embed it in their own
 * server; {@linkcode serveHttp} serves it on a socket. docs/http.md
 * describes what crosses between stdio and HTTP.
 *
 * @module
 */
import { untilInterrupted } from "../runtime/signals.ts";
import { originFor } from "../http/guard.ts";
import { serveLocal } from "../http/serve.ts";
import type { ListenAddress } from "../http/guard.ts";
import type { ReplayEngine } from "./engine.ts";
import type { ReplayReport } from "./report.ts";
import { HttpReplayServer } from "./http/server.ts";
import type { HttpHandle, HttpServeOptions } from "./http/options.ts";

export type { HttpServeOptions } from "./http/options.ts";
export { LEGACY_VERSIONS } from "./http/legacy.ts";

/** The HTTP replay as a fetch-shaped handler. */
export interface ReplayHandler {
  /** Answers one HTTP request, as the replay server would. */
  fetch(request: Request): Promise<Response>;
  /** The path the client is to use (the recorded one, `/mcp` by default). */
  readonly path: string;
  /**
   * Ends every live session and stream and completes the report. With the
   * recording's redaction rules, the journal's arguments are in once
   * `engine.finished()` resolves (absent until then).
   */
  finish(): ReplayReport;
}

/**
 * The HTTP replay of `engine`'s cassette as a `(request) => Promise<Response>`
 * handler, as hono's `app.fetch`. `origin` is the address the handler is
 * reached at, for the Host and Origin checks (default `127.0.0.1:0`, which
 * admits loopback names on any port).
 *
 * @example
 * ```ts
 * const handler = replayHandler(new ReplayEngine(await loadCassette("s.cassette.jsonl")));
 * const response = await handler.fetch(new Request("http://127.0.0.1/mcp", { method: "POST", body: "{}" }));
 * ```
 */
export function replayHandler(
  engine: ReplayEngine,
  options: HttpServeOptions = {},
  origin: ListenAddress = { hostname: "127.0.0.1", port: 0 },
): ReplayHandler {
  const server = new HttpReplayServer(engine, options);
  server.bound = origin;
  return {
    fetch: (request) => server.handle(request),
    path: server.path,
    finish: () => {
      server.finish();
      return engine.finish();
    },
  };
}

/**
 * Serves the engine's cassette over HTTP until told to stop; resolves with the report.
 *
 * @example
 * ```ts
 * const report = await serveHttp(new ReplayEngine(cassette), { listen: "127.0.0.1:0", onListening: console.log });
 * ```
 */
export async function serveHttp(
  engine: ReplayEngine,
  options: HttpServeOptions,
): Promise<ReplayReport> {
  const server = new HttpReplayServer(engine, options);
  const handlerOf = (served: HttpReplayServer): HttpHandle => (request, deadline, raw) =>
    served.handle(request, deadline, raw);
  const handle = options.route
    ? options.route(handlerOf(server), (engine) => {
      const other = new HttpReplayServer(engine, options);
      other.bound = server.bound;
      return handlerOf(other);
    })
    : handlerOf(server);
  const local = await serveLocal({
    listen: options.listen ?? "127.0.0.1:0",
    idleTimeoutMs: options.idleTimeoutMs,
    log: options.log,
    handlerGuards: true,
    token: options.token,
    // HTTP+SSE reads its bodies elsewhere: the runtime keeps its deadline.
    handlerReadsBody: !server.legacySse,
  }, (request, info) => handle(request, info.bodyDeadline, info.rawHeaders));
  if (local.warning) options.log?.(local.warning);
  server.bound = local.bound;
  options.onListening?.(originFor(local.bound.hostname, local.bound.port) + server.path);
  const stop = options.until ?? untilInterrupted();
  await stop;
  server.finish();
  await local.close();
  return await engine.finished();
}
