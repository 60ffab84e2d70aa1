/**
 * Recordings marked `"optional": true` in the cassette: server-everything
 * recorded once by the official SDK client, marked by hand and by
 * `prune --optional`, then replayed to the same client in process and by
 * the CLI over a real pipe. A marked recording may go unplayed: the
 * report's `unplayed` list, `failOnUnplayed`, `expectAllPlayed` and `prune`
 * pass it over, while an unmarked one left unplayed is still a finding; and
 * `lint` reads a marked cassette as it reads the unmarked one.
 */
import { before, test } from "node:test";
import assert from "node:assert/strict";
import { copyFileSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { CLI, run, tempDir } from "../helpers.ts";
import { recordCommand, replayCommand, runClient } from "../faults_e2e/_shared.ts";
import type { Call } from "../faults_e2e/_shared.ts";
import { Client } from "../sdk.ts";
import { ReplayTransport } from "../../src/api/transport.ts";
import { ReplayMissError } from "../../src/errors/errors.ts";
import type { ReplayReport } from "../../src/replay/report.ts";
import { expectAllPlayed, ExpectationError } from "../../src/testing/mod.ts";

const RECORDED: Call[] = [
  { label: "list", op: "tools/list" },
  { label: "echo", op: "tools/call", name: "echo", arguments: { message: "one" } },
  { label: "sum", op: "tools/call", name: "get-sum", arguments: { a: 2, b: 40 } },
  { label: "env", op: "tools/call", name: "get-env" },
];

/** What the replays ask: echo only, so tools/list, get-sum and get-env go unplayed. */
const REPLAYED: Call[] = [
  { label: "echo", op: "tools/call", name: "echo", arguments: { message: "one" } },
];

const dir = tempDir("mcp-cassette-optional-");
const cassette = path.join(dir, "everything.cassette.jsonl");

before(async () => {
  const live = await runClient(RECORDED, recordCommand(cassette));
  assert.ok(live.calls.every((call) => call.outcome === "ok"), JSON.stringify(live.calls));
});

function fileLines(file: string): string[] {
  return readFileSync(file, "utf8").trimEnd().split("\n");
}

/** The line (1-based) of the recorded client request whose text contains `text`. */
function lineOf(file: string, text: string): number {
  const index = fileLines(file).findIndex((line) => line.includes('"c2s"') && line.includes(text));
  assert.ok(index >= 0, `no recorded request holds ${text}`);
  return index + 1;
}

/** A copy of the cassette with `"optional": true` put by hand on the requests holding these texts. */
function markedByHand(name: string, texts: readonly string[]): string {
  const file = path.join(dir, name);
  const marked = new Set(texts.map((text) => lineOf(cassette, text)));
  const lines = fileLines(cassette).map((line, index) =>
    marked.has(index + 1)
      ? line.replace(/^\{"type":"message",/, '{"type":"message","optional":true,')
      : line
  );
  writeFileSync(file, lines.join("\n") + "\n");
  return file;
}

async function replayedInProcess(file: string): Promise<ReplayTransport> {
  const transport = await ReplayTransport.open(file);
  const client = new Client({ name: "optional", version: "1.0.0" });
  await client.connect(transport);
  await client.callTool({ name: "echo", arguments: { message: "one" } });
  await client.close();
  return transport;
}

function unplayedNames(report: ReplayReport): string[] {
  return [...report.unplayed].sort();
}

test("a recording marked optional in the cassette may go unplayed; the others must still be played", async () => {
  const file = markedByHand("hand.cassette.jsonl", ['"tools/list"', '"get-env"']);
  const transport = await replayedInProcess(file);
  const report = transport.report;
  await assert.rejects(transport.finish({ failOnUnplayed: true }), (error: Error) => {
    assert.ok(error instanceof ReplayMissError, String(error));
    assert.deepEqual(error.unplayed, ["tools/call get-sum"]);
    return true;
  });
  assert.deepEqual(unplayedNames(report), ["tools/call get-sum"]);
  const optional = report.recorded.filter((row) => row.optional).map((row) =>
    row.name ?? row.method
  );
  assert.deepEqual(optional.sort(), ["get-env", "tools/list"]);
  let failure: unknown;
  try {
    expectAllPlayed(report);
  } catch (error) {
    failure = error;
  }
  assert.ok(failure instanceof ExpectationError, String(failure));
  assert.match(failure.message, /expected every recording to be played, 1 never was/);
  assert.match(failure.message, /line \d+: tools\/call get-sum$/);
  assert.doesNotMatch(failure.message, /get-env|tools\/list/);
  expectAllPlayed(report, { optional: ["get-sum"] });

  const all = markedByHand("all.cassette.jsonl", ['"tools/list"', '"get-env"', '"get-sum"']);
  const clean = await replayedInProcess(all);
  const finished = await clean.finish({ failOnUnplayed: true });
  assert.deepEqual(finished.unplayed, []);
  expectAllPlayed(finished);
});

test("the CLI replay's --report leaves optional recordings out of unplayed and marks their rows", async () => {
  const file = markedByHand("cli.cassette.jsonl", ['"tools/list"', '"get-env"']);
  const reportFile = path.join(dir, "cli-report.json");
  const client = await runClient(REPLAYED, replayCommand(file, ["--report", reportFile]));
  assert.equal(client.byLabel.get("echo")?.outcome, "ok", JSON.stringify(client.calls));
  const report = JSON.parse(readFileSync(reportFile, "utf8")) as ReplayReport;
  assert.deepEqual(unplayedNames(report), ["tools/call get-sum"]);
  const rows = new Map(report.recorded.map((row) => [row.name ?? row.method, row]));
  assert.equal(rows.get("get-env")?.optional, true);
  assert.equal(rows.get("tools/list")?.optional, true);
  assert.equal(rows.get("get-sum")?.optional, undefined);
  assert.throws(() => expectAllPlayed(report), /1 never was/);
  expectAllPlayed(report, { optional: ["get-sum"] });
});

test("prune --optional marks recordings by name or line, keeps every other byte, and prune keeps them", async () => {
  const file = path.join(dir, "prune.cassette.jsonl");
  copyFileSync(cassette, file);
  const before = fileLines(file);
  const listLine = lineOf(file, '"tools/list"');
  const envLine = lineOf(file, '"get-env"');
  const marked = await run([
    ...CLI,
    "prune",
    file,
    "--optional",
    "get-env",
    "--optional",
    String(listLine),
  ]);
  assert.equal(marked.code, 0, marked.stderr);
  assert.match(
    marked.stdout,
    new RegExp(
      `Marked optional: line ${Math.min(listLine, envLine)}, ${Math.max(listLine, envLine)}`,
    ),
  );
  const after = fileLines(file);
  assert.equal(after.length, before.length);
  after.forEach((line, index) => {
    if (index + 1 === listLine || index + 1 === envLine) {
      assert.equal(line, `{"optional":true,${before[index].slice(1)}`);
    } else assert.equal(line, before[index], `line ${index + 1} untouched`);
  });
  // Marking again changes nothing; a name no request holds, or a line that is no request, is refused.
  const again = await run([...CLI, "prune", file, "--optional", "get-env"]);
  assert.equal(again.code, 0, again.stderr);
  assert.doesNotMatch(again.stdout, /Marked/);
  assert.deepEqual(fileLines(file), after);
  const unknown = await run([...CLI, "prune", file, "--optional", "get-nothing"]);
  assert.equal(unknown.code, 2);
  assert.match(
    unknown.stderr,
    /--optional get-nothing: no recorded request of .* names it \(they name .*get-sum/,
  );
  const header = await run([...CLI, "prune", file, "--optional", "1"]);
  assert.equal(header.code, 2);
  assert.match(header.stderr, /--optional 1: line 1 of .* holds no recorded request/);
  assert.deepEqual(fileLines(file), after, "nothing written on a refusal");

  // lint reads the marked cassette as it read the unmarked one.
  const lintMarked = await run([...CLI, "lint", "--format", "json", file]);
  const lintPlain = await run([...CLI, "lint", "--format", "json", cassette]);
  assert.equal(lintMarked.code, lintPlain.code, lintMarked.stderr);
  assert.deepEqual(
    (JSON.parse(lintMarked.stdout) as { findings: unknown[] }).findings.length,
    (JSON.parse(lintPlain.stdout) as { findings: unknown[] }).findings.length,
  );

  // A run that asked only for echo: prune drops get-sum, keeps what is marked optional.
  const reportFile = path.join(dir, "prune-report.json");
  await runClient(REPLAYED, replayCommand(file, ["--report", reportFile]));
  const pruned = await run([...CLI, "prune", file, "--report", reportFile]);
  assert.equal(pruned.code, 0, pruned.stderr);
  assert.match(pruned.stdout, /Removed 1 recorded exchange\(s\)/);
  assert.match(pruned.stdout, /tools\/call get-sum/);
  const text = readFileSync(file, "utf8");
  assert.match(text, /"optional":true,.*"get-env"/);
  assert.match(text, /"optional":true,.*"tools\/list"/);
  assert.doesNotMatch(text, /get-sum","arguments"/);
});
