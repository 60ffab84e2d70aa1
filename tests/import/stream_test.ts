/**
 * `import` writes mcp-rec and mcp-vcr files as it converts them (issue 24):
 * the written cassette must equal the whole-file conversion, whatever line
 * the handshake is answered on, and a file that fails half-way must leave
 * OUT as it was.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { importForeign } from "../../src/cassette/import.ts";
import { loadCassette } from "../../src/cassette/reader.ts";
import { CLI, run, tempDir } from "../helpers.ts";

const rec = (ts: number, dir: "client->server" | "server->client", msg: object) =>
  JSON.stringify({ ts, dir, msg });

/** An mcp-rec file of `calls` tool calls, the handshake answered after `before` of them. */
function mcpRecLines(calls: number, before: number): string[] {
  const lines = [
    rec(1000, "client->server", {
      jsonrpc: "2.0",
      id: 0,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "c" } },
    }),
  ];
  const answer = rec(1000.5, "server->client", {
    jsonrpc: "2.0",
    id: 0,
    result: { protocolVersion: "2025-06-18", serverInfo: { name: "late-server", version: "7" } },
  });
  for (let i = 1; i <= calls; i++) {
    if (i === before + 1) lines.push(answer);
    const ts = 1001 + i / 1000;
    lines.push(
      rec(ts, "client->server", {
        jsonrpc: "2.0",
        id: i,
        method: "tools/call",
        params: { name: "echo", arguments: { text: `call ${i}` } },
      }),
      rec(ts, "server->client", {
        jsonrpc: "2.0",
        id: i,
        result: { content: [{ type: "text", text: `answer ${i}` }] },
      }),
    );
  }
  if (before >= calls) lines.push(answer);
  return lines;
}

async function importAndCompare(source: string, out: string): Promise<number> {
  const result = await run([...CLI, "import", source, "-o", out, "--force"]);
  assert.equal(result.code, 0, result.stderr);
  const direct = await importForeign(source);
  const back = await loadCassette(out);
  assert.deepEqual(back.header, direct.header, source);
  assert.deepEqual(
    back.entries.map(({ line: _, ...entry }) => entry),
    direct.entries.map(({ line: _, ...entry }) => entry),
    source,
  );
  assert.match(result.stderr, new RegExp(`converted ${direct.entries.length} entries`));
  return direct.entries.length;
}

test("import writes mcp-rec and mcp-vcr as it converts: the same cassette as the whole-file conversion", async () => {
  const dir = tempDir();
  const out = path.join(dir, "out.cassette.jsonl");
  // The handshake answered at once, after 3,000 calls (held until then), and never.
  for (const [before, name] of [[0, "early"], [3000, "late"], [Infinity, "none"]] as const) {
    const lines = mcpRecLines(4000, before);
    if (before === Infinity) lines.splice(lines.findIndex((l) => l.includes("late-server")), 1);
    const source = path.join(dir, `${name}.jsonl`);
    writeFileSync(source, lines.join("\n") + "\n");
    assert.equal(await importAndCompare(source, out), lines.length, name);
    const header = (await loadCassette(out)).header;
    assert.equal(header.server.name, before === Infinity ? undefined : "late-server", name);
  }
  const vcr = [
    JSON.stringify({ _type: "meta", version: 1, recorded_at: "2026-01-01T00:00:00Z" }),
    ...mcpRecLines(50, 10).map((line) => {
      const { ts, dir, msg } = JSON.parse(line);
      return JSON.stringify({ t: ts, dir: dir === "client->server" ? "c2s" : "s2c", payload: msg });
    }),
    JSON.stringify({ _type: "note", text: "not a message" }),
  ];
  const vcrFile = path.join(dir, "session.ndjson");
  // A torn last line is dropped, as the whole-file conversion drops it.
  writeFileSync(vcrFile, vcr.join("\n") + '\n{"t": 9, "dir": "c2s", "payl');
  assert.equal(await importAndCompare(vcrFile, out), 102);
});

test("an import that fails half-way leaves OUT as it was and no partial file", async () => {
  const dir = tempDir();
  const out = path.join(dir, "out.cassette.jsonl");
  writeFileSync(out, "the old cassette\n");
  // Past the first mebibyte read, so the writer has begun when the bad line comes.
  const lines = mcpRecLines(8000, 0);
  lines.push(JSON.stringify({ ts: 2000, dir: "sideways", msg: {} }));
  const source = path.join(dir, "broken.jsonl");
  writeFileSync(source, lines.join("\n") + "\n");
  const result = await run([...CLI, "import", source, "-o", out, "--force"]);
  assert.equal(result.code, 2, result.stderr);
  assert.match(result.stderr, new RegExp(`broken.jsonl:${lines.length}: "dir" must be`));
  assert.equal(readFileSync(out, "utf8"), "the old cassette\n");
  assert.deepEqual(readdirSync(dir).sort(), ["broken.jsonl", "out.cassette.jsonl"]);
  const fresh = path.join(dir, "fresh.cassette.jsonl");
  assert.equal((await run([...CLI, "import", source, "-o", fresh])).code, 2);
  assert.deepEqual(readdirSync(dir).sort(), ["broken.jsonl", "out.cassette.jsonl"]);
});
