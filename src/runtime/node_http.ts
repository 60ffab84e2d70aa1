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

/** Bodies up to this size with a declared length are read whole before the handler runs (cheaper than a Web stream). */
const SMALL_BODY_BYTES = 64 * 1024;

/** Reads a small, length-declared body with node events. */
function readSmallBody(req: http.IncomingMessage): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => resolve(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks)));
    req.on("error", reject);
  });
}

function toWebRequest(req: http.IncomingMessage, origin: string, signal: AbortSignal, small?: Uint8Array): Request {
  const headers = new Headers();
  for (let i = 0; i < req.rawHeaders.length; i += 2) {
    headers.append(req.rawHeaders[i], req.rawHeaders[i + 1]);
  }
  const hasBody = req.method !== "GET" && req.method !== "HEAD";
  return new Request(new URL(req.url ?? "/", origin), {
    method: req.method,
    headers,
    body: small ?? (hasBody ? (Readable.toWeb(req) as unknown as ReadableStream<Uint8Array>) : undefined),
    signal,
    // Node's fetch types require this for a streaming body.
    ...(hasBody && !small ? { duplex: "half" } : {}),
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
  if (!response.body) {
    res.writeHead(response.status, response.statusText, headers);
    res.end();
    return;
  }
  // A body that is not a stream (JSON, text) goes out in one write with its
  // length: no chunked framing, no separate header packet.
  if (!String(headers["content-type"] ?? "").startsWith("text/event-stream")) {
    const bytes = new Uint8Array(await response.arrayBuffer());
    headers["content-length"] = String(bytes.length);
    res.writeHead(response.status, response.statusText, headers);
    res.end(bytes);
    return;
  }
  res.writeHead(response.status, response.statusText, headers);
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

/** Serves `handler` on `options.hostname:options.port` (port 0: a free one). */
export async function serve(options: ServeOptions, handler: HttpHandler): Promise<HttpServer> {
  const server = http.createServer({ maxHeaderSize: options.maxHeaderBytes ?? 16384 });
  server.keepAliveTimeout = options.idleTimeoutMs ?? 5000;
  server.on("request", async (req, res) => {
    const controller = new AbortController();
    res.on("close", () => controller.abort());
    const origin = `http://${req.headers.host ?? `${options.hostname}:${options.port}`}`;
    const length = Number(req.headers["content-length"] ?? NaN);
    let small: Uint8Array | undefined;
    if (req.method !== "GET" && req.method !== "HEAD" && length > 0 && length <= SMALL_BODY_BYTES) {
      small = await readSmallBody(req).catch(() => undefined);
      if (!small) return;
    }
    let request: Request;
    try {
      request = toWebRequest(req, origin, controller.signal, small);
    } catch {
      res.writeHead(400).end();
      return;
    }
    handler(request, { remoteAddress: req.socket.remoteAddress ?? "" })
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
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections?.();
      }),
  };
}
