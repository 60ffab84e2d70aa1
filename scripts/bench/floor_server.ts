/**
 * The floor for replay benchmarks: a minimal hand-written stdio MCP server
 * that answers from memory, with no matching and no cassette. Anything that
 * replays a recording costs at least this much.
 */
import process from "node:process";

const answers: Record<string, (params: Record<string, unknown>) => unknown> = {
  initialize: () => ({
    protocolVersion: "2025-11-25",
    capabilities: { tools: {} },
    serverInfo: { name: "floor", version: "1.0.0" },
  }),
  "tools/list": () => ({
    tools: [{
      name: "echo",
      description: "Echo",
      inputSchema: { type: "object", properties: { message: { type: "string" } } },
    }],
  }),
  "tools/call": (params) => ({
    content: [{ type: "text", text: `Echo: ${(params.arguments as { message: string }).message}` }],
  }),
  ping: () => ({}),
};

let pending = "";
process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk: string) => {
  pending += chunk;
  const lines = pending.split("\n");
  pending = lines.pop()!;
  let out = "";
  for (const line of lines) {
    if (!line.trim()) continue;
    const message = JSON.parse(line);
    if (message.id === undefined) continue;
    const answer = answers[message.method];
    out += JSON.stringify(
      answer
        ? { jsonrpc: "2.0", id: message.id, result: answer(message.params ?? {}) }
        : { jsonrpc: "2.0", id: message.id, error: { code: -32601, message: "Method not found" } },
    ) + "\n";
  }
  if (out) process.stdout.write(out);
});
process.stdin.on("end", () => process.exit(0));
