import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { importForeign } from "../../src/cassette/import.ts";
import { loadCassette } from "../../src/cassette/reader.ts";
import type { Cassette } from "../../src/cassette/reader.ts";
import { CassetteFormatError } from "../../src/errors.ts";
import type { JsonObject } from "../../src/jsonrpc.ts";
import { CLI, PEERS, run, tempDir } from "../helpers.ts";

// PEERS: see tests/helpers.ts.
const peer = (file: string) => path.join(PEERS, file);

function messages(cassette: Cassette) {
  return cassette.entries.filter((entry) =>
    entry.type === "message"
  ) as (Cassette["entries"][number] & { type: "message" })[];
}

/** Results the server sent, by request id, in order of the client's requests. */
function resultsInRequestOrder(cassette: Cassette): unknown[] {
  const all = messages(cassette);
  const byId = new Map<string, unknown>();
  for (const entry of all) {
    const msg = entry.msg as JsonObject;
    if (entry.dir === "s2c" && "result" in msg) byId.set(JSON.stringify(msg.id), msg.result);
  }
  return all.filter((entry) =>
    entry.dir === "c2s" && typeof (entry.msg as JsonObject).method === "string" &&
    "id" in (entry.msg as JsonObject)
  )
    .map((entry) => byId.get(JSON.stringify((entry.msg as JsonObject).id)));
}

test("Python mcp-cassette v1, v2, v3: every message, direction, time and header field", async () => {
  const cases: [string, number, number, string][] = [
    ["python-mcp-cassette/echo_and_add.v1.mcp.json", 7, 4, "python-mcp-cassette@1"],
    ["python-mcp-cassette/http_echo_and_add.v2.mcp.json", 7, 4, "python-mcp-cassette@2"],
    ["python-mcp-cassette/sampling.v2.mcp.json", 7, 4, "python-mcp-cassette@2"],
    ["python-mcp-cassette/tools.v2.mcp.json", 5, 3, "python-mcp-cassette@2"],
    ["python-mcp-cassette/pii.v3.mcp.json", 5, 3, "python-mcp-cassette@3"],
  ];
  for (const [file, total, fromClient, source] of cases) {
    const source_ = JSON.parse(readFileSync(peer(file), "utf8"));
    const cassette = await loadCassette(peer(file));
    assert.equal(cassette.importedFrom, source, file);
    assert.equal(cassette.entries.length, total, file);
    assert.equal(
      messages(cassette).filter((entry) => entry.dir === "c2s").length,
      fromClient,
      file,
    );
    source_.messages.forEach((message: JsonObject, i: number) => {
      const entry = messages(cassette)[i];
      assert.deepEqual(entry.msg, message.payload, `${file} seq ${message.seq}`);
      assert.equal(entry.t, message.t_offset_ms);
      assert.equal(entry.dir, message.sender === "client" ? "c2s" : "s2c");
    });
    assert.equal(cassette.header.protocolVersion, "2024-11-05");
    assert.deepEqual([cassette.header.server.name, cassette.header.server.version], [
      "echo-example",
      "1.0.0",
    ]);
    assert.equal(cassette.header.era, "legacy");
    assert.equal(cassette.header.created, source_.recorded_at);
  }
  const http = await loadCassette(peer("python-mcp-cassette/http_echo_and_add.v2.mcp.json"));
  assert.equal(http.header.transport, "http");
  assert.equal(http.header.server.url, "http://127.0.0.1:58990/mcp");
  assert.deepEqual(messages(http).map((entry) => entry.x), [0, 0, 1, 2, 2, 3, 3]);
  const pii = await loadCassette(peer("python-mcp-cassette/pii.v3.mcp.json"));
  assert.ok(pii.header.redaction?.rules.includes("common/email"));
  assert.deepEqual(pii.header.redaction?.packs?.map((pack) => pack.name), ["common", "team"]);
  assert.equal(pii.header.meta?.redactionProfile, "team-baseline");
  const sampling = await loadCassette(peer("python-mcp-cassette/sampling.v2.mcp.json"));
  const serverRequest = messages(sampling).find((entry) =>
    (entry.msg as JsonObject).method === "sampling/createMessage"
  );
  assert.equal(serverRequest?.dir, "s2c");
  // Findings point at the source file's lines.
  assert.equal(
    messages(sampling)[4].line,
    readFileSync(peer("python-mcp-cassette/sampling.v2.mcp.json"), "utf8").split("\n").findIndex((
      l,
    ) => l.includes('"seq": 4')) + 1,
  );
});

test("TypeScript mcp-cassette stdio: every result equals what the client received live", async () => {
  const expected = JSON.parse(
    readFileSync(peer("ts-mcp-cassette/everything.stdio.expected.json"), "utf8"),
  );
  const cassette = await loadCassette(peer("ts-mcp-cassette/everything.stdio.cassette.jsonl"));
  assert.equal(cassette.importedFrom, "ts-mcp-cassette@2");
  assert.equal(cassette.entries.length, 44);
  assert.equal(cassette.header.transport, "stdio");
  assert.deepEqual(cassette.header.server.command?.slice(0, 1), ["node"]);
  assert.equal(cassette.header.server.name, "mcp-servers/everything");
  assert.equal(cassette.header.protocolVersion, "2025-11-25");
  const results = resultsInRequestOrder(cassette);
  const { server, ...steps } = expected;
  const initialize = results[0] as JsonObject;
  assert.deepEqual(initialize.serverInfo, server.info);
  assert.deepEqual(initialize.capabilities, server.caps);
  assert.deepEqual(results.slice(1), Object.values(steps));
  assert.equal(
    messages(cassette).filter((entry) =>
      entry.dir === "s2c" && (entry.msg as JsonObject).method === "notifications/tools/list_changed"
    ).length,
    1,
  );
});

test("TypeScript mcp-cassette HTTP: streamed chunks back in arrival order, exchanges, server-initiated requests", async () => {
  const expected = JSON.parse(
    readFileSync(peer("ts-mcp-cassette/initiated.http.expected.json"), "utf8"),
  );
  const cassette = await loadCassette(peer("ts-mcp-cassette/initiated.http.cassette.jsonl"));
  assert.equal(cassette.header.transport, "http");
  assert.equal(cassette.header.era, "legacy");
  assert.equal(cassette.header.server.url, "http://127.0.0.1:45921/mcp");
  const all = messages(cassette);
  assert.equal(all.length, 27);
  const times = all.map((entry) => entry.t);
  assert.deepEqual(times, [...times].sort((a, b) => a - b), "entries are in time order");
  const results = resultsInRequestOrder(cassette).filter((result) =>
    result !== undefined
  ) as JsonObject[];
  // initialize, tools/list, then the five tools/call in order
  assert.deepEqual(results[0].serverInfo, expected.server.info);
  assert.deepEqual(results[1], expected["tools/list"]);
  assert.deepEqual(results.slice(2, 7), [
    expected.sampling,
    expected.elicitation,
    expected.roots,
    expected.progress,
    expected["sampling-2"],
  ]);
  const asked = all.filter((entry) =>
    entry.dir === "s2c" && "id" in (entry.msg as JsonObject) &&
    typeof (entry.msg as JsonObject).method === "string"
  );
  assert.deepEqual(
    asked.map((entry) => (entry.msg as JsonObject).method),
    expected.asked.map((ask: JsonObject) => ask.method),
  );
  const progress = all.filter((entry) =>
    (entry.msg as JsonObject).method === "notifications/progress"
  );
  assert.equal(progress.length, 3);
  // A POST's stream shares the exchange number of its request; the GET stream has its own.
  const call = all.find((entry) => (entry.msg as JsonObject).id === 5 && entry.dir === "c2s")!;
  assert.ok(progress.every((entry) => entry.x === call.x && entry.sse?.stream === "post"));
  const roots = all.find((entry) => (entry.msg as JsonObject).method === "roots/list")!;
  assert.equal(roots.sse?.stream, "get");
  assert.notEqual(roots.x, call.x);
});

test("TypeScript mcp-cassette small fixtures: v1 and v2 tapes, era and command", async () => {
  const tape = await loadCassette(peer("ts-mcp-cassette/stdio-tape.jsonl"));
  assert.deepEqual(messages(tape).map((entry) => entry.dir), ["c2s", "s2c"]);
  const modern = await loadCassette(peer("ts-mcp-cassette/tape.http.jsonl"));
  assert.equal(modern.header.era, "modern");
  assert.equal(modern.header.transport, "http");
  const golden = await loadCassette(peer("ts-mcp-cassette/tiny-server.golden.cassette.jsonl"));
  assert.equal(golden.importedFrom, "ts-mcp-cassette@1");
  assert.deepEqual(golden.header.server.command, ["node", "tests/fixtures/tiny-server.mjs"]);
  assert.equal(golden.header.protocolVersion, "2025-06-18");
  assert.equal(golden.entries.length, 5);
});

test("mcp-replay: requests and responses, times in milliseconds, results equal the live ones", async () => {
  const expected = JSON.parse(
    readFileSync(peer("ts-mcp-cassette/everything.stdio.expected.json"), "utf8"),
  );
  const cassette = await loadCassette(peer("mcp-replay/everything.session.jsonl"));
  assert.equal(cassette.importedFrom, "mcp-replay@1");
  assert.equal(cassette.entries.length, 23, "12 client messages, 11 with a response");
  assert.deepEqual(messages(cassette).slice(0, 3).map((entry) => [entry.dir, entry.t]), [
    ["c2s", 24],
    ["s2c", 24],
    ["c2s", 471],
  ]);
  assert.equal(cassette.header.server.name, "mcp-servers/everything");
  const results = resultsInRequestOrder(cassette);
  const { server: _server, ...steps } = expected;
  assert.deepEqual(results.slice(1), Object.values(steps).slice(0, results.length - 1));
});

test("a file of no known format is a one-line CassetteFormatError, exit 2", async () => {
  const dir = tempDir();
  const stray = path.join(dir, "notes.jsonl");
  writeFileSync(stray, `{"hello": "world"}\n`);
  await assert.rejects(importForeign(stray), (error: unknown) => {
    assert.ok(error instanceof CassetteFormatError);
    assert.match(error.message, /not a cassette of any known format \(expected/);
    return true;
  });
  const result = await run([...CLI, "import", stray, "-o", path.join(dir, "out.jsonl")]);
  assert.equal(result.code, 2);
  assert.equal(result.stderr.trim().split("\n").length, 1);
  const cli = await run([
    ...CLI,
    "inspect",
    peer("ts-mcp-cassette/everything.stdio.expected.json"),
  ]);
  assert.equal(cli.code, 2);
  writeFileSync(stray, `{"format_version": 9, "messages": []}`);
  await assert.rejects(importForeign(stray), /format_version 9 is not supported/);
});

test("import -o writes a cassette our reader reads back unchanged", async () => {
  const dir = tempDir();
  const out = path.join(dir, "everything.cassette.jsonl");
  const source = peer("ts-mcp-cassette/initiated.http.cassette.jsonl");
  const result = await run([...CLI, "import", source, "-o", out]);
  assert.equal(result.code, 0, result.stderr);
  assert.match(result.stderr, /converted 27 entries from ts-mcp-cassette@2/);
  const back = await loadCassette(out);
  assert.equal(back.importedFrom, undefined);
  const direct = await importForeign(source);
  assert.deepEqual(back.header, direct.header);
  assert.deepEqual(
    back.entries.map(({ line: _, ...entry }) => entry),
    direct.entries.map(({ line: _, ...entry }) => entry),
  );
  const again = await run([...CLI, "import", source, "-o", out]);
  assert.equal(again.code, 2, "refuses to overwrite without --force");
  assert.equal((await run([...CLI, "import", source, "-o", out, "--force"])).code, 0);
});
