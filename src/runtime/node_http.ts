/**
 * HTTP serving on `node:http`, which behaves the same in Deno, Node and Bun:
 * a Web `Request → Response` handler with streamed bodies, backpressure, and
 * bounded header sizes and idle connections. Loaded only when something
 * serves HTTP.
 *
 * @module
 */
import * as http from "node:http";
import { Readable } from "node:stream";
import type { HttpHandler, HttpServer, ServeOptions } from "./types.ts";
import { requestDeadlineMs, withBodyDeadline } from "./request_deadline.ts";

function toWebRequest(req: http.IncomingMessage, origin: string, signal: AbortSignal): Request {
  const headers = new Headers();
  for (let i = 0; i < req.rawHeaders.length; i += 2) {
    headers.append(req.rawHeaders[i], req.rawHeaders[i + 1]);
  }
  const hasBody = req.method !== "GET" && req.method !== "HEAD";
  return new Request(new URL(req.url ?? "/", origin), {
    method: req.method,
    headers,
    body: hasBody ? (Readable.toWeb(req) as unknown as ReadableStream<Uint8Array>) : undefined,
    signal,
    // Node's fetch types require this for a streaming body.
    ...(hasBody ? { duplex: "half" } : {}),
  } as RequestInit);
}

async function writeWebResponse(response: Response, res: http.ServerResponse, signal: AbortSignal) {
  const headers: Record<string, string | string[]> = {};
  response.headers.forEach((value, key) => {
    if (key === "set-cookie") return;
    headers[key] = value;
  });
  const cookies = response.headers.getSetCookie?.() ?? [];
  if (cookies.length > 0) headers["set-cookie"] = cookies;
  res.writeHead(response.status, response.statusText, headers);
  if (!response.body) {
    res.end();
    return;
  }
  res.flushHeaders();
  const reader = response.body.getReader();
  signal.addEventListener("abort", () => reader.cancel().catch(() => {}), { once: true });
  try {
    while (true) {
      const { done, value } = await reader.read();
      if (done) break;
      if (!res.write(value)) {
        // Backpressure: wait for the socket to drain before pulling more.
        await new Promise<void>((resolve) => {
          const finish = () => {
            res.off("drain", finish);
            res.off("close", finish);
            resolve();
          };
          res.once("drain", finish);
          res.once("close", finish);
        });
      }
      if (signal.aborted) break;
    }
  } catch {
    // The body was cancelled (client gone, or a fault dropped the stream).
  }
  res.end();
}

/** Requests in flight per connection: a connection with none is idle. */
const inFlight = new WeakMap<object, number>();

/**
 * Closes connections idle for `ms`: never sent a request, stopped in the
 * middle of one, or kept alive between requests. `keepAliveTimeout` alone
 * leaves the first two open. A connection whose response is still open (a
 * quiet SSE stream) is kept; its timer starts again with its next activity.
 */
function closeIdleConnections(server: http.Server, ms: number) {
  server.keepAliveTimeout = ms;
  server.setTimeout(ms, (socket) => {
    if ((inFlight.get(socket) ?? 0) === 0) socket.destroy();
  });
}

/** Serves `handler` on `options.hostname:options.port` (port 0: a free one). */
export async function serve(options: ServeOptions, handler: HttpHandler): Promise<HttpServer> {
  const server = http.createServer({ maxHeaderSize: options.maxHeaderBytes ?? 16384 });
  closeIdleConnections(server, options.idleTimeoutMs ?? 30_000);
  const deadline = requestDeadlineMs(options);
  let cut = 0;
  server.on("request", (req, res) => {
    const controller = new AbortController();
    const socket = req.socket;
    inFlight.set(socket, (inFlight.get(socket) ?? 0) + 1);
    res.on("close", () => {
      inFlight.set(socket, (inFlight.get(socket) ?? 1) - 1);
      controller.abort();
    });
    const origin = `http://${req.headers.host ?? `${options.hostname}:${options.port}`}`;
    let request: Request;
    try {
      request = toWebRequest(req, origin, controller.signal);
    } catch {
      res.writeHead(400).end();
      return;
    }
    const remoteAddress = req.socket.remoteAddress ?? "";
    withBodyDeadline(request, deadline, (bounded) => handler(bounded, { remoteAddress }), () => {
      cut++;
      options.onRequestCut?.({
        remoteAddress,
        method: req.method ?? "",
        path: new URL(request.url).pathname,
      });
      // After the 408 has had a moment to go out: the rest of the body is not waited for.
      setTimeout(() => socket.destroy(), 100);
    })
      .then((response) => writeWebResponse(response, res, controller.signal))
      .catch(() => {
        if (!res.headersSent) res.writeHead(500);
        res.end();
      });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.hostname, () => resolve());
  });
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : options.port;
  return {
    hostname: options.hostname,
    port,
    requestsCut: () => cut,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections?.();
      }),
  };
}
