/**
 * An upstream for the SSE latency benchmark: a Streamable HTTP server whose
 * `tools/call` answer is an SSE stream of progress notifications sent every
 * `interval` ms, each carrying the moment it was written
 * (`performance.timeOrigin + performance.now()`, comparable across
 * processes on one machine), then the result. `initialize` is answered as
 * JSON with a session id; notifications get 202.
 *
 * Usage: deno run -A scripts/bench/sse_ticker.ts [PORT]
 * Prints "listening on port N" on stderr.
 *
 * @module
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import process from "node:process";

/** The shared clock: wall-clock milliseconds with sub-ms resolution. */
const now = () => performance.timeOrigin + performance.now();

const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on("data", (chunk: Buffer) => chunks.push(chunk));
  req.on("end", () => {
    if (req.method !== "POST") {
      res.writeHead(405).end();
      return;
    }
    const message = JSON.parse(Buffer.concat(chunks).toString("utf8"));
    if (message.id === undefined) {
      res.writeHead(202).end();
      return;
    }
    if (message.method !== "tools/call") {
      res.writeHead(200, { "content-type": "application/json", "mcp-session-id": "ticker" });
      res.end(JSON.stringify({
        jsonrpc: "2.0",
        id: message.id,
        result: {
          protocolVersion: "2025-06-18",
          capabilities: { tools: {} },
          serverInfo: { name: "sse-ticker", version: "1" },
        },
      }));
      return;
    }
    const args = message.params?.arguments ?? {};
    const count = Number(args.count ?? 100);
    const interval = Number(args.interval ?? 10);
    res.writeHead(200, {
      "content-type": "text/event-stream",
      "cache-control": "no-cache",
      "mcp-session-id": "ticker",
    });
    let sent = 0;
    const tick = () => {
      if (sent < count) {
        sent++;
        const note = {
          jsonrpc: "2.0",
          method: "notifications/progress",
          params: { progressToken: 1, progress: sent, total: count, message: String(now()) },
        };
        res.write(`event: message\nid: ${sent}\ndata: ${JSON.stringify(note)}\n\n`);
        setTimeout(tick, interval);
        return;
      }
      const done = {
        jsonrpc: "2.0",
        id: message.id,
        result: { content: [{ type: "text", text: "done" }] },
      };
      res.end(`event: message\ndata: ${JSON.stringify(done)}\n\n`);
    };
    tick();
  });
});

server.listen(Number(process.argv[2] ?? 0), "127.0.0.1", () => {
  process.stderr.write(`listening on port ${(server.address() as AddressInfo).port}\n`);
});
