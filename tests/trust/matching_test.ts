/**
 * Exact matching by default, leniency only when asked, paths a user
 * declares volatile, and helpers that never hide a doubtful answer: the
 * official SDK client against a recording of our Python server.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import process from "node:process";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ReplayMissError, ReplayTransport, startCassette } from "../../mod.ts";
import { CLI, ROOT, run, tempDir } from "../helpers.ts";

const SERVER = ["python3", path.join(ROOT, "tests/fixtures/trust/weather_server.py")];

type Args = Record<string, unknown>;

/** One SDK client session through `startCassette`; the tool results, then the finish outcome. */
async function withCassette(
  cassette: string,
  calls: Args[],
  options: { match?: "exact" | "lenient"; matchIgnore?: string[] } = {},
) {
  const server = await startCassette({ path: cassette, server: SERVER, ...options });
  const client = new Client({ name: "trust", version: "1" });
  const results: unknown[] = [];
  try {
    await client.connect(new StdioClientTransport({ command: server.command, args: server.args }));
    for (const args of calls) {
      results.push(
        await client.callTool({ name: "weather", arguments: args }).catch((error) => error),
      );
    }
  } finally {
    await client.close();
  }
  const finished = await server.finish().then((result) => result, (error) => error);
  return { results, finished };
}

function textOf(result: unknown): string {
  return ((result as { content?: { text: string }[] }).content ?? [])[0]?.text ?? String(result);
}

test("a call whose arguments were never recorded is a miss by default, and finish() throws naming it", async (t) => {
  const dir = tempDir();
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const cassette = path.join(dir, "weather.cassette.jsonl");
  const recorded = await withCassette(cassette, [{ city: "Lisbon" }]);
  assert.match(textOf(recorded.results[0]), /Lisbon/);
  const replayed = await withCassette(cassette, [{ city: "Porto" }]);
  assert.match(String(replayed.results[0]), /-32001|No recorded answer/);
  assert.ok(replayed.finished instanceof ReplayMissError, String(replayed.finished));
  assert.match(
    replayed.finished.message,
    /params\.arguments\.city \(recorded "Lisbon", got "Porto"\)/,
  );
  const miss = (replayed.finished as ReplayMissError).misses[0];
  assert.equal(miss.path, "params.arguments.city");
  assert.equal(typeof miss.closestLine, "number");
  // The CLI: exit 3.
  const cli = await run([...CLI, "replay", cassette], { input: sessionLines({ city: "Porto" }) });
  assert.equal(cli.code, 3, cli.stderr);
  assert.equal((cli.stderr.match(/miss: /g) ?? []).length, 1, `one miss line:\n${cli.stderr}`);
});

test('match: "lenient" (--lenient) answers with the same tool\'s recording, and says so', async (t) => {
  const dir = tempDir();
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const cassette = path.join(dir, "weather.cassette.jsonl");
  await withCassette(cassette, [{ city: "Lisbon" }]);
  const lenient = await withCassette(cassette, [{ city: "Porto" }], { match: "lenient" });
  assert.match(textOf(lenient.results[0]), /Lisbon/);
  assert.ok(!(lenient.finished instanceof Error), String(lenient.finished));
  assert.equal(lenient.finished.inexact.length, 1);
  assert.match(lenient.finished.inexact[0], /Porto.*answered with the recording of.*Lisbon/);
  const cli = await run([...CLI, "replay", "--lenient", cassette], {
    input: sessionLines({ city: "Porto" }),
  });
  assert.equal(cli.code, 0, cli.stderr);
  assert.match(cli.stderr, /inexact match/);
});

test("--match-ignore leaves a path out of matching, never out of the answer", async (t) => {
  const dir = tempDir();
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const cassette = path.join(dir, "ids.cassette.jsonl");
  await withCassette(cassette, [{ city: "Lisbon", request_id: "r-1", at: { timestamp: 1 } }]);
  const strict = await withCassette(cassette, [{
    city: "Lisbon",
    request_id: "r-2",
    at: { timestamp: 1 },
  }]);
  assert.ok(strict.finished instanceof ReplayMissError, "a new request id is a miss by default");
  const ignored = await withCassette(
    cassette,
    [{ city: "Lisbon", request_id: "r-2", at: { timestamp: 99 } }],
    { matchIgnore: ["params.arguments.request_id", "params.arguments.*.timestamp"] },
  );
  assert.ok(!(ignored.finished instanceof Error), String(ignored.finished));
  assert.match(textOf(ignored.results[0]), /Lisbon/);
  // The answer is the recorded one, as recorded.
  const live = readFileSync(cassette, "utf8");
  assert.match(live, /"station": 12345678901234567890/);
  const cli = await run([
    ...CLI,
    "replay",
    cassette,
    "--match-ignore",
    "params.arguments.request_id",
    "--match-ignore",
    "params.arguments.*.timestamp",
  ], { input: sessionLines({ city: "Lisbon", request_id: "r-3", at: { timestamp: 5 } }) });
  assert.equal(cli.code, 0, cli.stderr);
  assert.match(cli.stdout, /"celsius": 9\.0/);
});

test("a --match-ignore path that does not parse is one line naming the flag, exit 2", async () => {
  for (const bad of ["arguments.x", "params..x", "params.[x"]) {
    const cli = await run([
      ...CLI,
      "replay",
      "tests/interop/golden/everything.cassette.jsonl",
      "--match-ignore",
      bad,
    ], { input: "" });
    assert.equal(cli.code, 2, `${bad}: ${cli.stderr}`);
    assert.match(cli.stderr, /--match-ignore/);
    assert.equal(cli.stderr.trim().split("\n").length, 1, cli.stderr);
  }
});

test("a custom matcher decides for its tool; one that throws answers -32603 and fails finish()", async (t) => {
  const dir = tempDir();
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const cassette = path.join(dir, "weather.cassette.jsonl");
  await withCassette(cassette, [{ city: "Lisbon" }]);
  const byCityInitial = {
    method: "tools/call",
    tool: "weather",
    match: (recorded: { params?: unknown }, live: { params?: unknown }) =>
      cityOf(recorded)[0] === cityOf(live)[0],
  };
  const transport = await ReplayTransport.open(cassette, { matchers: [byCityInitial] });
  const client = new Client({ name: "trust", version: "1" });
  await client.connect(transport);
  const answer = await client.callTool({ name: "weather", arguments: { city: "Leiria" } });
  assert.match(textOf(answer), /Lisbon/);
  await client.close();
  await transport.finish();
  const throwing = await ReplayTransport.open(cassette, {
    matchers: [{
      method: "tools/call",
      match: () => {
        throw new Error("boom");
      },
    }],
  });
  const other = new Client({ name: "trust", version: "1" });
  await other.connect(throwing);
  const failed = await other.callTool({ name: "weather", arguments: { city: "Lisbon" } }).catch((
    error,
  ) => error);
  assert.match(String(failed), /-32603|custom matcher for tools\/call threw: boom/);
  await other.close();
  await assert.rejects(throwing.finish(), /custom matcher for tools\/call threw: boom/);
});

test("MCP_CASSETTE_REPORT_DIR keeps one report per run, naming the cassette by its header hash", async (t) => {
  const dir = tempDir();
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const cassette = path.join(dir, "weather.cassette.jsonl");
  await withCassette(cassette, [{ city: "Lisbon" }]);
  const reports = path.join(dir, "reports");
  process.env.MCP_CASSETTE_REPORT_DIR = reports;
  try {
    await withCassette(cassette, [{ city: "Lisbon" }]);
  } finally {
    delete process.env.MCP_CASSETTE_REPORT_DIR;
  }
  const files = readdirSync(reports);
  assert.equal(files.length, 1, files.join(", "));
  const report = JSON.parse(readFileSync(path.join(reports, files[0]), "utf8"));
  assert.match(report.cassette.headerSha256, /^[0-9a-f]{64}$/);
  const calls = report.recorded.filter((row: { method: string }) => row.method === "tools/call");
  assert.deepEqual(calls.map((row: { played: number; name: string }) => [row.name, row.played]), [[
    "weather",
    1,
  ]]);
});

function cityOf(message: { params?: unknown }): string {
  const params = message.params as { arguments?: { city?: string } } | undefined;
  return params?.arguments?.city ?? "";
}

function sessionLines(args: Args): string {
  return [
    {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: {
        protocolVersion: "2025-06-18",
        capabilities: {},
        clientInfo: { name: "c", version: "1" },
      },
    },
    { jsonrpc: "2.0", method: "notifications/initialized" },
    { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "weather", arguments: args } },
  ].map((message) => JSON.stringify(message)).join("\n") + "\n";
}
