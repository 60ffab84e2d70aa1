/**
 * The official Python SDK client (`mcp`, pinned by tests/interop/setup.sh
 * and run through tests/interop/python/client.py) drives `replay --listen
 * --control` over Streamable HTTP; the test then reads `GET
 * /__cassette/journal` and asserts the calls the client made, with their
 * arguments, outcomes and the lines that answered them. The cassette is the
 * interop golden recording with some requests marked optional by `prune
 * --optional`: the report the replay writes when stopped names its
 * cassette by path and leaves the optional recordings out of `unplayed`.
 *
 * Needs Python: CI runs it once, under Deno (scripts/test_bun.sh leaves it
 * out of the Bun pass).
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { copyFileSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { CLI, run, skipTest, tempDir } from "../helpers.ts";
import { startBackground, URL_LINE } from "../http/http_helpers.ts";
import type { Background } from "../http/http_helpers.ts";
import { setupState } from "./clients.ts";
import { GOLDEN, HERE, PYTHON } from "./golden.ts";
import type { Journal, JournalEntry } from "../../src/replay/journal.ts";
import type { ReplayReport } from "../../src/replay/report.ts";

/** What the Python client asks, in order (client.py's session format). */
const STEPS = [
  { name: "sum", method: "tools/call", params: { name: "get-sum", arguments: { a: 2, b: 40 } } },
  {
    name: "echo",
    method: "tools/call",
    params: { name: "echo", arguments: { message: "hello from every language" } },
  },
  {
    name: "echo-other",
    method: "tools/call",
    params: { name: "echo", arguments: { message: "never recorded" } },
  },
  { name: "prompt", method: "prompts/get", params: { name: "simple-prompt" } },
];

const state = setupState("python");
const dir = tempDir("mcp-cassette-py-control-");
const cassette = path.join(dir, "everything.cassette.jsonl");
const reportFile = path.join(dir, "report.json");
let replay: Background | undefined;
let base = "";

/** The line (1-based) of the recorded client request whose text holds all of `texts`. */
function lineOf(...texts: string[]): number {
  const lines = readFileSync(GOLDEN, "utf8").split("\n");
  const index = lines.findIndex((line) =>
    line.includes('"c2s"') && texts.every((text) => line.includes(text))
  );
  assert.ok(index >= 0, `no recorded request holds ${texts.join(" ")}`);
  return index + 1;
}

before(async () => {
  if (!("ok" in state)) return;
  copyFileSync(GOLDEN, cassette);
  // Everything the client will not ask for is optional, but resources/read.
  const optional = [
    "no-such-tool",
    "args-prompt",
    "no-such-prompt",
    lineOf('"resources/list"'),
    lineOf('"prompts/list"'),
    lineOf('"id":6,', '"echo"'),
  ];
  const marked = await run([
    ...CLI,
    "prune",
    cassette,
    ...optional.flatMap((selector) => ["--optional", String(selector)]),
  ]);
  assert.equal(marked.code, 0, marked.stderr);
  replay = await startBackground(
    [
      ...CLI,
      "replay",
      cassette,
      "--listen",
      "127.0.0.1:0",
      "--control",
      "--report",
      reportFile,
    ],
    URL_LINE,
  );
  base = new URL(replay.found).origin;
});

after(async () => {
  await replay?.stop();
});

async function journal(): Promise<Journal> {
  const response = await fetch(`${base}/__cassette/journal`);
  assert.equal(response.status, 200);
  return await response.json() as Journal;
}

test("the Python SDK client's calls, read back from GET /__cassette/journal, and the report", async (t) => {
  if (!("ok" in state)) {
    skipTest(t, `the interop Python client is not installed: ${state.skip}`);
    return;
  }
  assert.deepEqual((await journal()).requests, [], "nothing asked yet");
  const session = path.join(dir, "session.json");
  writeFileSync(session, JSON.stringify({ steps: STEPS }));
  const client = await run([
    PYTHON,
    path.join(HERE, "python", "client.py"),
    "--session",
    session,
    "--url",
    replay!.found,
  ]);
  assert.equal(client.code, 0, client.stderr);
  const seen = JSON.parse(client.stdout);
  assert.match(seen.sdk, /^python mcp /);
  assert.match(JSON.stringify(seen.steps.sum), /The sum of 2 and 40 is 42/);
  assert.equal(seen.steps["echo-other"].error.code, -32001);

  const { requests } = await journal();
  const calls = requests.filter((entry) =>
    entry.method === "tools/call" || entry.method === "prompts/get"
  )
    .map(({ session: _session, ...rest }: JournalEntry) => rest);
  assert.deepEqual(calls, [
    {
      method: "tools/call",
      tool: "get-sum",
      arguments: { a: 2, b: 40 },
      outcome: "exact",
      line: lineOf('"get-sum"'),
    },
    {
      method: "tools/call",
      tool: "echo",
      arguments: { message: "hello from every language" },
      outcome: "exact",
      line: lineOf('"id":5,', '"echo"'),
    },
    {
      method: "tools/call",
      tool: "echo",
      arguments: { message: "never recorded" },
      outcome: "miss",
    },
    {
      method: "prompts/get",
      prompt: "simple-prompt",
      // Recorded after requests this client never made (resources/read among them).
      outcome: "out-of-order",
      line: lineOf('"simple-prompt"'),
    },
  ]);
  assert.equal(requests[0].method, "initialize", JSON.stringify(requests[0]));
  const sessions = new Set(requests.map((entry) => entry.session));
  assert.equal(sessions.size, 1, `one client session: ${[...sessions].join(", ")}`);

  // Stopped as a client stops its server: the report names the cassette, and of the
  // recordings never asked for only the one not marked optional is unplayed.
  await replay!.stop();
  assert.match(
    replay!.output(),
    /recorded but never asked for \(1\): resources\/read demo:\/\/resource\/static\/document\/architecture\.md\n/,
  );
  const report = JSON.parse(readFileSync(reportFile, "utf8")) as ReplayReport;
  assert.equal(report.cassette?.path, cassette);
  assert.equal(report.cassette?.resolvedPath, cassette);
  assert.deepEqual(report.unplayed, [
    "resources/read demo://resource/static/document/architecture.md",
  ]);
  assert.equal(report.recorded.filter((row) => row.optional).length, 6);
  assert.equal(report.journal.requests.length, requests.length);
});
