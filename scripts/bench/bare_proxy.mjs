/**
 * The least any HTTP proxy costs, for the recorder's benchmark (issue 24): a
 * reverse proxy under Node that forwards each request to the upstream with
 * `http.request` over kept-alive connections, pipes the request body up and
 * the response body (JSON or an SSE stream) back, and records nothing.
 *
 * Usage: node scripts/bench/bare_proxy.mjs UPSTREAM_URL [PORT]
 * Prints "listening on http://127.0.0.1:PORT/PATH" on stderr, PATH being the upstream's.
 *
 * @module
 */
import { Agent, createServer, request } from "node:http";
import process from "node:process";

const upstream = new URL(process.argv[2] ?? "");
const agent = new Agent({ keepAlive: true, maxSockets: 256 });

const server = createServer((req, res) => {
  const headers = { ...req.headers, host: upstream.host };
  const forwarded = request({
    agent,
    hostname: upstream.hostname,
    port: upstream.port,
    method: req.method,
    path: req.url,
    headers,
  }, (answer) => {
    res.writeHead(answer.statusCode ?? 502, answer.headers);
    answer.pipe(res);
  });
  forwarded.on("error", () => {
    if (!res.headersSent) res.writeHead(502);
    res.end();
  });
  req.pipe(forwarded);
});
server.keepAliveTimeout = 30_000;

server.listen(Number(process.argv[3] ?? 0), "127.0.0.1", () => {
  const { port } = server.address();
  process.stderr.write(`listening on http://127.0.0.1:${port}${upstream.pathname}\n`);
});
