/**
 * The floor for the HTTP benchmarks: a minimal Streamable HTTP MCP server
 * answering from memory with `application/json`, minting an
 * `Mcp-Session-Id` on initialize, 202 for notifications. No matching, no
 * cassette, no checks beyond what a client session needs: anything that
 * serves MCP over HTTP costs at least this much.
 *
 * Usage: deno run -A scripts/bench/http_floor.ts [PORT]
 * Prints "listening on port N" on stderr.
 *
 * @module
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import process from "node:process";

let sessions = 0;

/** The result for a request, from memory. */
function result(method: string, params: Record<string, unknown>): unknown {
  if (method === "initialize") {
    return {
      protocolVersion: String(params.protocolVersion ?? "2025-06-18"),
      capabilities: { tools: {} },
      serverInfo: { name: "http-floor", version: "1.0.0" },
    };
  }
  if (method === "tools/call") {
    const args = (params.arguments ?? {}) as { message?: unknown };
    return { content: [{ type: "text", text: `Echo: ${String(args.message ?? "")}` }] };
  }
  if (method === "tools/list") {
    return { tools: [{ name: "echo", inputSchema: { type: "object" } }] };
  }
  return {};
}

const server = createServer((req, res) => {
  if (req.method !== "POST") {
    res.writeHead(405, { allow: "POST" }).end();
    return;
  }
  const chunks: Buffer[] = [];
  req.on("data", (chunk: Buffer) => chunks.push(chunk));
  req.on("end", () => {
    const message = JSON.parse(Buffer.concat(chunks).toString("utf8"));
    const sessionId = message.method === "initialize"
      ? `floor-${++sessions}`
      : String(req.headers["mcp-session-id"] ?? "");
    if (message.id === undefined) {
      res.writeHead(202, { "mcp-session-id": sessionId }).end();
      return;
    }
    const body = JSON.stringify({
      jsonrpc: "2.0",
      id: message.id,
      result: result(message.method, message.params ?? {}),
    });
    res.writeHead(200, { "content-type": "application/json", "mcp-session-id": sessionId });
    res.end(body);
  });
});
server.keepAliveTimeout = 30_000;

server.listen(Number(process.argv[2] ?? 0), "127.0.0.1", () => {
  process.stderr.write(`listening on port ${(server.address() as AddressInfo).port}\n`);
});
