/**
 * The journal: server-everything recorded once over stdio by the official
 * SDK client, then replayed to the same client over a real pipe and over
 * Streamable HTTP. Every live request is in the report's `journal`, in
 * arrival order, with its tool, its arguments (redacted as the recording
 * was), its session, how it was answered and the line that answered it;
 * `inspect --report` prints it; the in-process transport and `startCassette`
 * give it too; and it keeps no more than its limit.
 */
import { before, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { CLI, EVERYTHING, run, tempDir } from "../helpers.ts";
import { startBackground, URL_LINE } from "../http/http_helpers.ts";
import { recordCommand, replayCommand, runClient, writeFile } from "../faults_e2e/_shared.ts";
import type { Call } from "../faults_e2e/_shared.ts";
import { Client, StdioClientTransport } from "../sdk.ts";
import { startCassette } from "../../src/api/start.ts";
import { ReplayTransport } from "../../src/api/transport.ts";
import type { Journal, JournalEntry } from "../../src/replay/journal.ts";

const AWS_KEY = "AKIAQ3EXAMPLE7KEY4ZZ"; // fake, format-valid: redacted by the built-in rules

const RECORDED: Call[] = [
  { label: "echo", op: "tools/call", name: "echo", arguments: { message: "one" } },
  { label: "secret", op: "tools/call", name: "echo", arguments: { message: `key ${AWS_KEY}` } },
  { label: "sum", op: "tools/call", name: "get-sum", arguments: { a: 2, b: 40 } },
  { label: "prompt", op: "prompts/get", name: "simple-prompt" },
];

const REPLAYED: Call[] = [
  { label: "echo", op: "tools/call", name: "echo", arguments: { message: "one" } },
  { label: "secret", op: "tools/call", name: "echo", arguments: { message: `key ${AWS_KEY}` } },
  { label: "echo-again", op: "tools/call", name: "echo", arguments: { message: "one" } },
  { label: "sum-other", op: "tools/call", name: "get-sum", arguments: { a: 1, b: 1 } },
  { label: "prompt", op: "prompts/get", name: "simple-prompt" },
];

const dir = tempDir("mcp-cassette-journal-");
const cassette = path.join(dir, "everything.cassette.jsonl");

before(async () => {
  const live = await runClient(RECORDED, recordCommand(cassette));
  assert.ok(live.calls.every((call) => call.outcome === "ok"), JSON.stringify(live.calls));
});

/** The cassette line (1-based) of the recorded client request whose JSON contains `text`. */
function lineOf(text: string): number {
  const lines = readFileSync(cassette, "utf8").split("\n");
  const index = lines.findIndex((line) => line.includes('"c2s"') && line.includes(text));
  assert.ok(index >= 0, `no recorded request holds ${text}`);
  return index + 1;
}

/** The fields a test compares: everything but the session. */
function shape(entry: JournalEntry) {
  const { session: _session, ...rest } = entry;
  return rest;
}

function readJournal(reportFile: string): Journal {
  return JSON.parse(readFileSync(reportFile, "utf8")).journal as Journal;
}

test("stdio replay: the report's journal holds every request in order, how it was answered and by which line", async () => {
  const reportFile = path.join(dir, "stdio.report.json");
  const faults = writeFile(dir, "faults.json", [
    { match: { prompt: "simple-prompt" }, fault: { kind: "error", code: -32000, message: "no" } },
  ]);
  await runClient(REPLAYED, replayCommand(cassette, ["--report", reportFile, "--faults", faults]));
  const journal = readJournal(reportFile);
  assert.equal(journal.dropped, 0);
  assert.equal(journal.limit, 10_000);
  const echoLine = lineOf('"message":"one"');
  // The recording's placeholder (keyed with a digest when the recording was).
  const secretArgument = (journal.requests[2].arguments as { message: string }).message;
  assert.match(secretArgument, /^key \[REDACTED:aws-access-key-id(:[0-9a-f]+)?\]$/);
  assert.deepEqual(journal.requests.map(shape), [
    {
      method: "initialize",
      outcome: "exact",
      line: lineOf('"method":"initialize"'),
      arguments: journal.requests[0].arguments,
    },
    {
      method: "tools/call",
      tool: "echo",
      arguments: { message: "one" },
      outcome: "exact",
      line: echoLine,
    },
    {
      method: "tools/call",
      tool: "echo",
      arguments: { message: secretArgument },
      outcome: "exact",
      line: lineOf("aws-access-key-id"),
    },
    {
      method: "tools/call",
      tool: "echo",
      arguments: { message: "one" },
      outcome: "repeat",
      line: echoLine,
    },
    { method: "tools/call", tool: "get-sum", arguments: { a: 1, b: 1 }, outcome: "miss" },
    {
      method: "prompts/get",
      prompt: "simple-prompt",
      outcome: "fault",
      line: lineOf('"simple-prompt"'),
    },
  ]);
  assert.ok(journal.requests.every((entry) => entry.session === "1"));
  assert.ok(!readFileSync(reportFile, "utf8").includes(AWS_KEY), "the report holds the secret");

  const text = await run([...CLI, "inspect", "--report", reportFile]);
  assert.equal(text.code, 0, text.stderr);
  assert.match(text.stdout, /6 request\(s\)/);
  assert.match(text.stdout, /tools\/call\s+get-sum\s+miss\s+\{"a":1,"b":1\}/);
  assert.match(text.stdout, new RegExp(`tools/call\\s+echo\\s+repeat\\s+${echoLine}\\s`));
  const json = await run([...CLI, "inspect", "--report", reportFile, "--format", "json"]);
  assert.deepEqual(JSON.parse(json.stdout).requests.length, 6);
});

test("lenient replay over Streamable HTTP: an inexact answer is journaled with the line that stood in", async () => {
  const reportFile = path.join(dir, "http.report.json");
  const replay = await startBackground(
    [...CLI, "replay", cassette, "--listen", "127.0.0.1:0", "--lenient", "--report", reportFile],
    URL_LINE,
  );
  try {
    await runClient([REPLAYED[3]], { url: replay.found });
  } finally {
    await replay.stop();
  }
  const requests = readJournal(reportFile).requests;
  const sum = requests.find((entry) => entry.tool === "get-sum");
  assert.deepEqual(sum && shape(sum), {
    method: "tools/call",
    tool: "get-sum",
    arguments: { a: 1, b: 1 },
    outcome: "inexact",
    line: lineOf('"get-sum"'),
  });
  assert.equal(requests[0].method, "initialize");
});

test("inspect --report: a report without a journal, or a file that is none, is one line and exit 2", async () => {
  const old = writeFile(dir, "old.report.json", { misses: [] });
  const result = await run([...CLI, "inspect", "--report", old]);
  assert.equal(result.code, 2);
  assert.match(result.stderr, /old\.report\.json: the report has no journal/);
  assert.equal(result.stderr.trim().split("\n").length, 1);
  const missing = await run([...CLI, "inspect", "--report", path.join(dir, "none.json")]);
  assert.equal(missing.code, 2);
  assert.match(missing.stderr, /Cannot read the report .*none\.json/);
});

test("the in-process transport's journal keeps its limit and counts the rest", async () => {
  const transport = await ReplayTransport.open(cassette, { journalLimit: 2 });
  const client = new Client({ name: "journal", version: "1.0.0" });
  await client.connect(transport);
  await client.callTool({ name: "echo", arguments: { message: "one" } });
  await client.callTool({ name: "get-sum", arguments: { a: 2, b: 40 } });
  await client.close();
  const { journal } = transport.report;
  assert.deepEqual(journal.requests.map((entry) => entry.tool ?? entry.method), [
    "initialize",
    "echo",
  ]);
  assert.equal(journal.dropped, 1);
  assert.equal(journal.limit, 2);
});

test("startCassette: the result's journal numbers each stdio launch as a session", async () => {
  const server = await startCassette({ path: cassette, mode: "none" });
  for (const message of ["one", "one"]) {
    const client = new Client({ name: "journal", version: "1.0.0" });
    await client.connect(new StdioClientTransport({ command: server.command, args: server.args }));
    await client.callTool({ name: "echo", arguments: { message } });
    await client.close();
  }
  const result = await server.finish();
  const calls = result.journal.requests.filter((entry) => entry.tool === "echo");
  assert.deepEqual(calls.map((entry) => [entry.session, entry.outcome]), [
    ["1", "exact"],
    ["2", "exact"],
  ]);
});

test("replay --new-episodes: a miss the live server answers is journaled as live, with no line", async () => {
  const copy = path.join(dir, "appended.cassette.jsonl");
  writeFile(dir, "appended.cassette.jsonl", readFileSync(cassette, "utf8"));
  const reportFile = path.join(dir, "live.report.json");
  const command = [
    ...CLI,
    "replay",
    copy,
    "--report",
    reportFile,
    "--new-episodes",
    "--",
    ...EVERYTHING,
  ];
  await runClient([REPLAYED[3]], command);
  const sum = readJournal(reportFile).requests.find((entry) => entry.tool === "get-sum");
  assert.deepEqual(sum && shape(sum), {
    method: "tools/call",
    tool: "get-sum",
    arguments: { a: 1, b: 1 },
    outcome: "live",
  });
});
