/**
 * HTTP serving on Deno's own server (hyper), with the bounds `Deno.serve`
 * lacks: it has no idle timeout, so a connection that never sends a request,
 * one that stops in the middle of its headers, and a keep-alive one between
 * requests all stay open for good (still open after 75 s, measured). Here
 * the connections are accepted in JS, each is served by Deno's server, and
 * one that has had no request in flight for the idle timeout is shut down.
 * Throughput stays close to `Deno.serve`'s (a trivial handler under the same
 * load: 42-52k requests/s against 46-53k), where `node:http` under Deno does
 * about a quarter.
 *
 * Per-connection serving is Deno's internal `serveHttpOnConnection`; on a
 * Deno without it, `Deno.serve` is used and idle connections are not closed.
 *
 * @module
 */
import type { HttpHandler, HttpServer, ServeOptions } from "./types.ts";
import { headerBytes, rawHeaders } from "./deno_header_bytes.ts";
import {
  handlerDeadline,
  holdDeadlines,
  requestDeadlineMs,
  withBodyDeadline,
} from "./request_deadline.ts";

interface DenoConn {
  readonly remoteAddr: { hostname: string };
  close(): void;
}
interface DenoListener extends AsyncIterable<DenoConn> {
  readonly addr: { port: number };
  close(): void;
}
type DenoHandler = (
  request: Request,
  info: { remoteAddr?: { hostname: string }; completed?: Promise<void> },
) => Response | Promise<Response>;
type ServeOnConnection = (
  conn: DenoConn,
  signal: AbortSignal,
  handler: DenoHandler,
  onError: (error: unknown) => Response,
  onListen: () => void,
) => { finished: Promise<void> };
interface DenoHttpApi {
  internal: symbol;
  listen(options: { hostname: string; port: number }): DenoListener;
  serve(
    options: {
      hostname: string;
      port: number;
      signal: AbortSignal;
      onListen(address: { port: number }): void;
    },
    handler: DenoHandler,
  ): { finished: Promise<void> };
}

const Deno = (globalThis as unknown as { Deno: DenoHttpApi }).Deno;

/** Deno's per-connection server, when this Deno has it. */
function serveOnConnection(): ServeOnConnection | undefined {
  const internal =
    (Deno as unknown as Record<symbol, { serveHttpOnConnection?: unknown }>)[Deno.internal];
  const serveOn = internal?.serveHttpOnConnection;
  return typeof serveOn === "function" ? serveOn as ServeOnConnection : undefined;
}

/**
 * The handler with the header cap applied: Deno's server has its own
 * limits, so an oversized header block gets 431 here, as on every runtime.
 */
function capped(options: ServeOptions, handler: HttpHandler, counter: { cut: number }) {
  const maxHeaderBytes = options.maxHeaderBytes ?? 16384;
  const deadline = requestDeadlineMs(options);
  return (
    request: Request,
    remoteAddress: string,
    close?: () => void,
  ): Response | Promise<Response> => {
    const raw = rawHeaders(request);
    if (headerBytes(request, raw) > maxHeaderBytes) {
      return new Response("Request header fields too large", { status: 431 });
    }
    const onCut = () => {
      counter.cut++;
      const path = new URL(request.url).pathname;
      options.onRequestCut?.({ remoteAddress, method: request.method, path });
      // After the 408 has had a moment to go out: the rest of the body is not waited for.
      if (close) setTimeout(close, 100);
    };
    if (options.handlerReadsBody) {
      return handler(request, {
        remoteAddress,
        bodyDeadline: handlerDeadline(deadline, onCut),
        rawHeaders: raw,
      });
    }
    return withBodyDeadline(
      request,
      deadline,
      (bounded) => handler(bounded, { remoteAddress, rawHeaders: raw }),
      onCut,
    );
  };
}

const internalError = () => new Response("Internal Server Error", { status: 500 });

/** Serves `handler` on Deno's HTTP server, closing idle connections where it can. */
export function serve(options: ServeOptions, handler: HttpHandler): Promise<HttpServer> {
  const serveOn = serveOnConnection();
  return serveOn
    ? Promise.resolve(serveTracked(options, handler, serveOn))
    : serveUntracked(options, handler);
}

/**
 * Shuts one connection's server down. Deno throws BadResource from the abort
 * when the connection is already gone: gone is what was wanted. The throw
 * happens in Deno's own abort listener, which reports it as an uncaught
 * error rather than to the caller of `abort()`; the report is dispatched
 * before `abort()` returns, so an error listener held around the call keeps
 * it from ending the process (a recorder so ended never wrote its cassette:
 * about 1 run in 60 of a client leaving an SSE stream just before SIGINT).
 */
function shutDown(tracked: Tracked): void {
  const scope = globalThis as unknown as ErrorEvents;
  const ignoreGone = (event: ErrorEventLike) => {
    if (event.error?.name === "BadResource") event.preventDefault();
  };
  scope.addEventListener("error", ignoreGone);
  try {
    tracked.stop.abort();
  } catch {
    // Already closed.
  } finally {
    scope.removeEventListener("error", ignoreGone);
  }
}

/** The slice of the global scope's error events used above (declared: the build's lib has no DOM). */
interface ErrorEventLike {
  error?: { name?: string };
  preventDefault(): void;
}
interface ErrorEvents {
  addEventListener(type: "error", listener: (event: ErrorEventLike) => void): void;
  removeEventListener(type: "error", listener: (event: ErrorEventLike) => void): void;
}

/** One accepted connection: shut down after `idleMs` with nothing in flight. */
interface Tracked {
  inFlight: number;
  lastActive: number;
  stop: AbortController;
  finished: Promise<void>;
}

function serveTracked(
  options: ServeOptions,
  handler: HttpHandler,
  serveOn: ServeOnConnection,
): HttpServer {
  const listener = Deno.listen({ hostname: options.hostname, port: options.port });
  const release = options.handlerReadsBody ? holdDeadlines() : () => {};
  const counter = { cut: 0 };
  const handle = capped(options, handler, counter);
  const idleMs = options.idleTimeoutMs ?? 30_000;
  const open = new Set<Tracked>();
  const serveConnection = (conn: DenoConn) => {
    const tracked: Tracked = {
      inFlight: 0,
      lastActive: performance.now(),
      stop: new AbortController(),
      finished: Promise.resolve(),
    };
    const remote = conn.remoteAddr.hostname;
    open.add(tracked);
    tracked.finished = serveOn(
      conn,
      tracked.stop.signal,
      (request, info) => {
        tracked.inFlight++;
        // `completed` settles when the response has been sent (or failed): a
        // streaming response keeps its connection busy until then.
        const done = () => {
          tracked.inFlight--;
          tracked.lastActive = performance.now();
        };
        if (info.completed) info.completed.then(done, done);
        else queueMicrotask(done);
        return handle(request, remote, () => shutDown(tracked));
      },
      internalError,
      () => {},
    ).finished.catch(() => {}).finally(() => open.delete(tracked));
  };
  const accepting = (async () => {
    for await (const conn of listener) {
      try {
        serveConnection(conn);
      } catch {
        // Gone before it could be served; the next connection still is.
        try {
          conn.close();
        } catch {
          // Already closed.
        }
      }
    }
  })().catch(() => {});
  // One sweep for all connections, rather than a timer re-armed on every request.
  const sweep = setInterval(() => {
    const now = performance.now();
    for (const tracked of open) {
      if (tracked.inFlight === 0 && now - tracked.lastActive >= idleMs) shutDown(tracked);
    }
  }, Math.max(50, Math.min(idleMs / 2, 5000)));
  return {
    hostname: options.hostname,
    port: listener.addr.port,
    requestsCut: () => counter.cut,
    close: async () => {
      clearInterval(sweep);
      release();
      listener.close();
      await accepting;
      for (const tracked of open) shutDown(tracked);
      await Promise.all([...open].map((tracked) => tracked.finished));
    },
  };
}

/** `Deno.serve`, for a Deno without per-connection serving: idle connections stay open. */
function serveUntracked(options: ServeOptions, handler: HttpHandler): Promise<HttpServer> {
  const counter = { cut: 0 };
  const handle = capped(options, handler, counter);
  const stop = new AbortController();
  const release = options.handlerReadsBody ? holdDeadlines() : () => {};
  return new Promise((resolve, reject) => {
    try {
      const server = Deno.serve({
        hostname: options.hostname,
        port: options.port,
        signal: stop.signal,
        onListen: ({ port }) =>
          resolve({
            hostname: options.hostname,
            port,
            requestsCut: () => counter.cut,
            close: async () => {
              release();
              stop.abort();
              await server.finished;
            },
          }),
      }, (request, info) => handle(request, info.remoteAddr?.hostname ?? ""));
    } catch (error) {
      release();
      reject(error);
    }
  });
}

/** True when this Deno can serve with idle connections closed. */
export function closesIdleConnections(): boolean {
  return serveOnConnection() !== undefined;
}
