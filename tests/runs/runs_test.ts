/**
 * `runs`: server-everything recorded once over stdio by the official SDK
 * client, replayed several times with different calls through the real CLI
 * with `--report`, then the reports compared: calls per tool and run,
 * misses, argument drift against the cassette (given, or the one the
 * reports name by path), order changes, and a tool the recording never saw
 * standing out in the table, JSON and Markdown.
 */
import { before, test } from "node:test";
import assert from "node:assert/strict";
import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { CLI, ROOT, run, tempDir } from "../helpers.ts";
import { recordCommand, replayCommand, runClient } from "../faults_e2e/_shared.ts";
import type { Call } from "../faults_e2e/_shared.ts";

const echo = (message: string): Call => ({
  label: `echo-${message}`,
  op: "tools/call",
  name: "echo",
  arguments: { message },
});
const sum = (a: number, b: number): Call => ({
  label: `sum-${a}-${b}`,
  op: "tools/call",
  name: "get-sum",
  arguments: { a, b },
});

const dir = tempDir("mcp-cassette-runs-");
const cassette = path.join(dir, "everything.cassette.jsonl");
const reports = path.join(dir, "reports");

/** Replays `calls` against the cassette through the CLI, writing `reports/NAME.json`. */
async function replayRun(name: string, calls: Call[], flags: string[] = []): Promise<string> {
  const file = path.join(reports, `${name}.json`);
  await runClient(calls, replayCommand(cassette, ["--report", file, ...flags]));
  return file;
}

let first = "", second = "", third = "";

before(async () => {
  mkdirSync(reports);
  const live = await runClient([echo("one"), sum(2, 40)], recordCommand(cassette));
  assert.ok(live.calls.every((call) => call.outcome === "ok"), JSON.stringify(live.calls));
  first = await replayRun("1-same", [echo("one"), sum(2, 40)]);
  // Lenient: the first other sum is answered by the recorded one, so its arguments drift;
  // the second is a miss.
  second = await replayRun("2-drift", [sum(1, 40), echo("one"), sum(3, 4)], ["--lenient"]);
  third = await replayRun("3-unseen", [echo("one"), {
    label: "unseen",
    op: "tools/call",
    name: "delete-all-files",
    arguments: {},
  }]);
});

interface Row {
  name: string;
  calls: number[];
  misses: number[];
  unrecorded: boolean;
  compared: number;
  drift: { path: string; count: number }[];
}

test("runs --format json: calls per run, drift against the cassette, order changes, an unseen tool", async () => {
  const out = await run([
    ...CLI,
    "runs",
    first,
    second,
    third,
    "--cassette",
    cassette,
    "--format",
    "json",
  ]);
  assert.equal(out.code, 0, out.stderr);
  const report = JSON.parse(out.stdout);
  const rows = new Map<string, Row>(report.tools.map((row: Row) => [row.name, row]));
  assert.deepEqual([...rows.keys()], ["delete-all-files", "echo", "get-sum"]);
  assert.deepEqual(rows.get("echo"), {
    name: "echo",
    calls: [1, 1, 1],
    misses: [0, 0, 0],
    unrecorded: false,
    compared: 3,
    drift: [],
  });
  const getSum = rows.get("get-sum")!;
  assert.deepEqual(getSum.calls, [1, 2, 0]);
  // The second lenient sum finds the recording used up: a miss, compared with the
  // closest recording the report names for it.
  assert.deepEqual(getSum.misses, [0, 1, 0]);
  assert.equal(getSum.compared, 3);
  assert.deepEqual(getSum.drift, [{ path: "a", count: 2 }, { path: "b", count: 1 }]);
  const unseen = rows.get("delete-all-files")!;
  assert.deepEqual([unseen.calls, unseen.misses, unseen.unrecorded], [[0, 0, 1], [0, 0, 1], true]);
  assert.deepEqual(report.runs.map((r: { orderChanged: boolean }) => r.orderChanged), [
    false,
    true,
    false,
  ]);
  assert.deepEqual(report.runs[1].order, ["get-sum", "echo"]);
  assert.deepEqual(report.runs[2].unrecordedTools, ["delete-all-files"]);
  assert.deepEqual(report.drift, { known: true, cassette });
});

test("runs: the table (a folder of reports) and Markdown mark the tool the recording never saw", async () => {
  const table = await run([...CLI, "runs", reports, "--cassette", cassette]);
  assert.equal(table.code, 0, table.stderr);
  assert.match(table.stdout, /^delete-all-files !\s+0\s+0\s+1\s+1\s+-$/m);
  assert.match(table.stdout, /^get-sum\s+1\s+2\s+0\s+1\s+a \(2 of 3\), b \(1 of 3\)$/m);
  assert.match(table.stdout, /^echo\s+1\s+1\s+1\s+0\s+none$/m);
  assert.match(table.stdout, /run 2: .*2-drift\.json .*order differs from run 1/);
  assert.match(table.stdout, /run 3: .*called tools the recording never saw: delete-all-files/);
  const markdown = await run([...CLI, "runs", reports, "--format", "markdown"]);
  assert.equal(markdown.code, 0, markdown.stderr);
  assert.match(
    markdown.stdout,
    /^\| \*\*delete-all-files\*\* ⚠️ never recorded \| 0 \| 0 \| 1 \| 1 \| - \|$/m,
  );
  assert.doesNotMatch(markdown.stdout, /argument drift unknown/);
});

test("a report names its cassette by path, as given and resolved; runs finds it without --cassette", async () => {
  // The replay runs in the repository root (the client's folder), given a relative path.
  const relative = path.relative(ROOT, cassette);
  const file = path.join(dir, "relative.json");
  await runClient([sum(1, 40)], replayCommand(relative, ["--report", file, "--lenient"]));
  const named = JSON.parse(readFileSync(file, "utf8")).cassette;
  assert.equal(named.path, relative);
  assert.equal(named.resolvedPath, cassette);
  assert.match(named.headerSha256, /^[0-9a-f]{64}$/);
  // From another folder: found at its resolved path, drift as with --cassette.
  const given = await run([
    ...CLI,
    "runs",
    first,
    second,
    third,
    "--cassette",
    cassette,
    "--format",
    "json",
  ]);
  const found = await run([...CLI, "runs", first, second, third, "--format", "json"], { cwd: dir });
  assert.equal(found.code, 0, found.stderr);
  const [withFlag, without] = [JSON.parse(given.stdout), JSON.parse(found.stdout)];
  assert.deepEqual(without.tools, withFlag.tools);
  assert.deepEqual(without.drift, { known: true, cassette });
  assert.deepEqual(without.notes, []);
  const alone = await run([...CLI, "runs", file, "--format", "json"], { cwd: dir });
  assert.equal(alone.code, 0, alone.stderr);
  assert.deepEqual(JSON.parse(alone.stdout).tools[0].drift, [{ path: "a", count: 1 }]);
});

test("runs without --cassette: a named cassette that is gone or re-recorded is one line, exit 2", async () => {
  const moved = path.join(dir, "moved.cassette.jsonl");
  copyFileSync(cassette, moved);
  const file = path.join(dir, "moved.json");
  await runClient([echo("one")], replayCommand(moved, ["--report", file]));
  // Re-recorded: same path, another header.
  const lines = readFileSync(moved, "utf8").split("\n");
  lines[0] = lines[0].replace(/"created":"[^"]*"/, '"created":"2020-01-01T00:00:00.000Z"');
  writeFileSync(moved, lines.join("\n"));
  const differs = await run([...CLI, "runs", file]);
  assert.equal(differs.code, 2, differs.stdout + differs.stderr);
  assert.equal(differs.stderr.trim().split("\n").length, 1, differs.stderr);
  assert.match(
    differs.stderr,
    /moved\.json: names the cassette .*moved\.cassette\.jsonl, whose first line no longer has the SHA-256 the report holds/,
  );
  rmSync(moved);
  const gone = await run([...CLI, "runs", file]);
  assert.equal(gone.code, 2, gone.stdout + gone.stderr);
  assert.equal(gone.stderr.trim().split("\n").length, 1, gone.stderr);
  assert.match(
    gone.stderr,
    /moved\.json: names the cassette .*moved\.cassette\.jsonl, which is gone/,
  );
  // --cassette still decides.
  const flagged = await run([...CLI, "runs", file, "--cassette", cassette]);
  assert.equal(flagged.code, 0, flagged.stderr);
});

test("runs reads MCP_CASSETTE_REPORT_DIR when no report is named", async () => {
  const out = await run([...CLI, "runs", "--format", "json"], {
    env: { MCP_CASSETTE_REPORT_DIR: reports },
  });
  assert.equal(out.code, 0, out.stderr);
  assert.equal(JSON.parse(out.stdout).runs.length, 3);
});

test("runs: bad input is one line naming it, exit 2", async () => {
  const notReport = path.join(dir, "not-a-report.json");
  writeFileSync(notReport, JSON.stringify({ hello: "world" }));
  const cases: [string[], RegExp][] = [
    [[], /at least one REPORT/],
    [[notReport], /not-a-report\.json: not a replay report/],
    [[path.join(dir, "absent.json")], /absent\.json: cannot read the report: no such file/],
  ];
  for (const [args, message] of cases) {
    const out = await run([...CLI, "runs", ...args], {
      env: { MCP_CASSETTE_REPORT_DIR: undefined },
    });
    assert.equal(out.code, 2, out.stdout + out.stderr);
    assert.equal(out.stderr.trim().split("\n").length, 1, out.stderr);
    assert.match(out.stderr, message);
  }
});

test("runs: an unreadable cassette leaves drift unknown, with one line saying why", async () => {
  const out = await run([...CLI, "runs", first, "--cassette", path.join(dir, "gone.jsonl")]);
  assert.equal(out.code, 0, out.stderr);
  assert.match(out.stdout, /^echo\s+1\s+0\s+unknown$/m);
  assert.equal(out.stdout.match(/argument drift unknown: the cassette cannot be read/g)?.length, 1);
});

test("runs: reports of another cassette are compared and said; control characters are escaped", async () => {
  const other = JSON.parse(readFileSync(third, "utf8"));
  other.cassette.headerSha256 = "0".repeat(64);
  other.journal.requests[1].tool = "evil\u001b[2Jtool"; // its echo call, renamed
  const otherFile = path.join(dir, "other-cassette.json");
  writeFileSync(otherFile, JSON.stringify(other));
  const out = await run([...CLI, "runs", first, otherFile, "--cassette", cassette]);
  assert.equal(out.code, 0, out.stderr);
  assert.ok(!out.stdout.includes("\u001b"), "a control character reached the terminal");
  assert.match(out.stdout, /^evil\\u001b\[2Jtool !\s+0\s+1\s+0\s+-$/m);
  assert.match(out.stdout, /note: the reports name 2 different cassettes/);
  assert.match(
    out.stdout,
    /note: .*other-cassette\.json: argument drift unknown: it names another cassette/,
  );
});
