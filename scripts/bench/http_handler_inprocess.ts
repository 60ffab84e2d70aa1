/**
 * HTTP replay's request handler driven in process, without sockets, to see its
 * own cost. Usage: deno run -A --no-check scripts/bench/http_handler_inprocess.ts CASSETTE [REQUESTS]
 */
import { runtime } from "../../src/runtime/mod.ts";
import { loadCassette } from "../../src/cassette/reader.ts";
import { ReplayEngine } from "../../src/replay/engine.ts";
import { serveHttp } from "../../src/replay/http.ts";
const file = Deno.args[0];
let handler: ((r: Request) => Promise<Response>) | undefined;
// Capture the handler instead of listening: the requests below go straight to it.
(runtime as { serve: unknown }).serve = (_o: unknown, h: (r: Request) => Promise<Response>) => {
  handler = h;
  return Promise.resolve({ hostname: "127.0.0.1", port: 8808, close: () => Promise.resolve() });
};
let stop!: () => void;
const until = new Promise<void>((r) => (stop = r));
const engine = new ReplayEngine(await loadCassette(file));
const done = serveHttp(engine, { listen: "127.0.0.1:8808", until });
await new Promise((r) => setTimeout(r, 10));
const base = {
  "content-type": "application/json",
  accept: "application/json, text/event-stream",
  host: "127.0.0.1:8808",
};
const post = (body: unknown, extra: Record<string, string> = {}) =>
  handler!(
    new Request("http://127.0.0.1:8808/mcp", {
      method: "POST",
      headers: { ...base, ...extra },
      body: JSON.stringify(body),
    }),
  );
const N = Number(Deno.args[1] ?? 2000);
const t0 = performance.now();
let calls = 0;
for (let s = 0; s < N / 20; s++) {
  const init = await post({
    jsonrpc: "2.0",
    id: 0,
    method: "initialize",
    params: {
      protocolVersion: "2025-11-25",
      capabilities: {},
      clientInfo: { name: "b", version: "1" },
    },
  });
  const sid = init.headers.get("mcp-session-id") ?? "";
  await init.text();
  const h: Record<string, string> = sid
    ? { "mcp-session-id": sid, "mcp-protocol-version": "2025-11-25" }
    : {};
  await (await post({ jsonrpc: "2.0", method: "notifications/initialized" }, h)).text();
  for (let i = 0; i < 20; i++) {
    const r = await post({
      jsonrpc: "2.0",
      id: i + 1,
      method: "tools/call",
      params: { name: "echo", arguments: { message: `m${i}` } },
    }, h);
    await r.text();
    calls++;
  }
}
const ms = performance.now() - t0;
console.log(`${((N / 20) * 22 / ms * 1000).toFixed(0)} requests/s in-process (${calls} calls)`);
stop();
await done;
