import { test } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import { writeFileSync } from "node:fs";
import { loadCassette } from "../../src/cassette/reader.ts";
import { inspectCassette, percentile, timeline } from "../../src/inspect/mod.ts";
import { CLI, FOREIGN, ROOT, run, tempDir } from "../helpers.ts";

// FOREIGN: see tests/helpers.ts.
const golden = path.join(ROOT, "examples/cassettes/weather.cassette.jsonl");
const initiated = path.join(FOREIGN, "ts-mcp-cassette/initiated.http.cassette.jsonl");

test("nearest-rank percentiles", () => {
  const values = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10];
  assert.equal(percentile(values, 50), 5);
  assert.equal(percentile(values, 95), 10);
  assert.equal(percentile([7], 95), 7);
});

test("per-method counts and latency, paired by id", async () => {
  const report = inspectCassette(await loadCassette(golden));
  const byMethod = Object.fromEntries(report.methods.map((m) => [`${m.dir} ${m.method}`, m]));
  assert.deepEqual(byMethod["c2s initialize"].latency, { p50: 38, p95: 38, max: 38 });
  assert.deepEqual(byMethod["c2s tools/call"].latency, { p50: 27, p95: 27, max: 27 });
  assert.equal(byMethod["c2s notifications/initialized"].kind, "notification");
  assert.deepEqual(report.sessions.map((s) => [s.session, s.messages, s.exitCode]), [["1", 7, 0]]);
  assert.deepEqual(report.surface, { tools: 2, prompts: 0, resources: 0, templates: 0 });
});

test("server-initiated requests and whether the client answered each", async () => {
  const report = inspectCassette(await loadCassette(initiated));
  assert.deepEqual(report.serverInitiated.requests.map((r) => [r.method, r.answered]), [
    ["sampling/createMessage", true],
    ["elicitation/create", true],
    ["roots/list", true],
    ["sampling/createMessage", true],
  ]);
  assert.deepEqual(report.serverInitiated.notifications, [
    { method: "notifications/message", count: 1 },
    { method: "notifications/progress", count: 3 },
  ]);
  const calls = report.methods.find((m) => m.method === "tools/call")!;
  assert.equal(calls.count, 5);
  assert.equal(calls.latency!.max, 1011, "the long-running call: request at 2186, answer at 3197");
});

test("timeline and grep", async () => {
  const cassette = await loadCassette(golden);
  const rows = timeline(cassette);
  assert.equal(rows.length, 9);
  assert.deepEqual([rows[1].t, rows[1].dir, rows[1].kind, rows[1].what], [
    3,
    "c2s",
    "request",
    "initialize #0",
  ]);
  assert.deepEqual(
    timeline(cassette, "LYON").map((row) => row.line),
    [7, 8, 9],
    "the schema example, the call, the answer",
  );
});

test("--format json is deterministic: same file, same bytes", async () => {
  const first = await run([...CLI, "inspect", initiated, "--format", "json", "--timeline"]);
  const second = await run([...CLI, "inspect", initiated, "--format", "json", "--timeline"]);
  assert.equal(first.code, 0, first.stderr);
  assert.equal(first.stdout, second.stdout);
  const parsed = JSON.parse(first.stdout);
  assert.deepEqual(Object.keys(parsed), [...Object.keys(parsed)].sort());
  assert.equal(parsed.timeline.length, 27);
});

test("CLI: text summary, --grep, --faults dry run, bad input", async () => {
  const text = await run([...CLI, "inspect", golden]);
  assert.equal(text.code, 0, text.stderr);
  assert.match(text.stdout, /server weather-example 1\.0\.0/);
  const grep = await run([...CLI, "inspect", golden, "--grep", "tools/call"]);
  assert.equal(grep.stdout.trim().split("\n").length, 2, grep.stdout);
  const dir = tempDir();
  const overlay = path.join(dir, "faults.json");
  writeFileSync(
    overlay,
    JSON.stringify({
      faults: [{
        match: { method: "tools/call", tool: "get_forecast" },
        fault: { kind: "timeout" },
      }, { match: { method: "prompts/get" }, fault: { kind: "timeout" } }],
    }),
  );
  const faults = await run([...CLI, "inspect", golden, "--faults", overlay]);
  assert.equal(faults.code, 0, faults.stderr);
  assert.match(faults.stdout, /1 hit\(s\)\n\s+request #2 tools\/call get_forecast \(line 8\)/);
  assert.match(faults.stdout, /would never fire/);
  assert.equal((await run([...CLI, "inspect", path.join(dir, "missing.jsonl")])).code, 2);
  assert.equal((await run([...CLI, "inspect", golden, "--format", "yaml"])).code, 2);
});

test("CLI: the server is named from its serverInfo when the header does not name it, as view and check do", async () => {
  // A cassette recorded through the SDK client: the header has the command, not the name.
  const cassette = path.join(
    ROOT,
    "examples/runners/node/cassettes/adds-two-numbers.cassette.jsonl",
  );
  const text = await run([...CLI, "inspect", cassette]);
  assert.equal(text.code, 0, text.stderr);
  assert.match(text.stdout, /\n {2}server mcp-servers\/everything 2\.0\.0 \(node /);
  const json = await run([...CLI, "inspect", cassette, "--format", "json"]);
  assert.deepEqual(JSON.parse(json.stdout).serverInfo, {
    name: "mcp-servers/everything",
    version: "2.0.0",
  });
  // A header that names the server still wins.
  const named = await run([
    ...CLI,
    "inspect",
    path.join(ROOT, "examples/cassettes/weather.cassette.jsonl"),
  ]);
  assert.match(named.stdout, /\n {2}server weather-example 1\.0\.0 /);
});
