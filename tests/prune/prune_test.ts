/**
 * `prune` on cassettes the test writes, with reports the test writes: what
 * goes with an unasked request (its answer, progress, the server's own
 * request and the client's answer to it, an HTTP exchange's envelope), what
 * stays (lifecycle, sessions, banner), merging several runs' reports, the
 * write-aside, --dry-run and the refusals.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { CLI, run, tempDir } from "../helpers.ts";
import { linesWith, reportFor, toolCassette, writeCassette } from "../view/_cassettes.ts";

function fileLines(file: string): string[] {
  return readFileSync(file, "utf8").trimEnd().split("\n");
}

/** The lines of `all` whose 1-based numbers are not in `drop`. */
function without(all: readonly string[], drop: readonly number[]): string[] {
  return all.filter((_, index) => !drop.includes(index + 1));
}

function range(from: number, to: number): number[] {
  return Array.from({ length: to - from + 1 }, (_, i) => from + i);
}

test("prune removes each unasked exchange with everything the server sent for it", async () => {
  const dir = tempDir();
  try {
    const file = path.join(dir, "w.cassette.jsonl");
    writeCassette(file, toolCassette({ calls: 4 }));
    const original = fileLines(file);
    const [call1, call2, call3, call4] = linesWith(file, '"method":"tools/call"');
    assert.deepEqual([call1, call2, call3, call4], [9, 11, 16, 18]);
    const report = path.join(dir, "run.json");
    writeFileSync(report, reportFor(file, { [call1]: { played: 1 }, [call3]: { inexact: 1 } }));
    const out = path.join(dir, "pruned.cassette.jsonl");
    const result = await run([...CLI, "prune", file, "--report", report, "-o", out]);
    assert.equal(result.code, 0, result.stderr);
    // tools/list (7-8); call 2 with its progress, sampling request, the client's answer, its answer (11-15); call 4 (18-19).
    const dropped = [7, 8, ...range(11, 15), 18, 19];
    assert.deepEqual(fileLines(out), without(original, dropped));
    assert.deepEqual(fileLines(file), original, "the cassette itself is untouched with -o");
    assert.match(result.stdout, /^Removed 3 recorded exchange\(s\), 9 of 19 entries/);
    assert.match(result.stdout, /line 7: tools\/list \(\+1 line it brought\)/);
    assert.match(result.stdout, /line 11: tools\/call alerts \(\+4 lines it brought\)/);
    assert.match(result.stdout, /line 18: tools\/call forecast \(\+1 line it brought\)/);
    assert.deepEqual(readdirSync(dir).sort(), [
      "pruned.cassette.jsonl",
      "run.json",
      "w.cassette.jsonl",
    ]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("prune merges several runs' reports and, without -o, replaces the cassette", async () => {
  const dir = tempDir();
  try {
    const file = path.join(dir, "w.cassette.jsonl");
    writeCassette(file, toolCassette({ calls: 4 }));
    const original = fileLines(file);
    const a = path.join(dir, "a.json");
    const b = path.join(dir, "b.json");
    writeFileSync(a, reportFor(file, { 7: { played: 1 }, 9: { played: 2 } }));
    writeFileSync(b, reportFor(file, { 11: { repeated: 1 } }));
    const result = await run([...CLI, "prune", file, "--report", a, "--report", b]);
    assert.equal(result.code, 0, result.stderr);
    assert.deepEqual(fileLines(file), without(original, [16, 17, 18, 19]));
    assert.equal(fileLines(file)[0], original[0], "the header stays byte for byte");
    assert.ok(!existsSync(`${file}.tmp`));

    // The same reports again: the header still matches, the lines no longer do.
    const pruned = readFileSync(file, "utf8");
    const again = await run([...CLI, "prune", file, "--report", a, "--report", b]);
    assert.equal(again.code, 2, again.stdout);
    assert.match(
      again.stderr,
      /a\.json: its line 16 \(tools\/call\) is not a tools\/call request in .*w\.cassette\.jsonl: the report is older than the cassette \(was it pruned since\?\)/,
    );
    assert.equal(readFileSync(file, "utf8"), pruned);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("prune --dry-run prints what would go and writes nothing", async () => {
  const dir = tempDir();
  try {
    const file = path.join(dir, "w.cassette.jsonl");
    writeCassette(file, toolCassette({ calls: 3 }));
    const before = readFileSync(file, "utf8");
    const report = path.join(dir, "run.json");
    writeFileSync(report, reportFor(file, { 7: { played: 1 } }));
    const out = path.join(dir, "out.jsonl");
    const result = await run([...CLI, "prune", file, "--report", report, "-o", out, "--dry-run"]);
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /^Would remove 3 recorded exchange\(s\)/);
    assert.match(result.stdout, /line 9: tools\/call forecast/);
    assert.equal(readFileSync(file, "utf8"), before);
    assert.ok(!existsSync(out) && !existsSync(`${out}.tmp`));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

/** An HTTP cassette: initialize (x1), a tools/call answered on an SSE stream (x2), a GET stream (x3). */
function httpCassette(): string[] {
  const header = JSON.parse(toolCassette({ calls: 0 })[0]);
  header.transport = "http";
  header.server = { url: "http://127.0.0.1:1/mcp" };
  let t = 0;
  const e = (entry: Record<string, unknown>) =>
    JSON.stringify({ t: t += 1, session: "s1", ...entry });
  const post = (x: number) =>
    e({ type: "http-request", x, method: "POST", path: "/mcp", headers: {} });
  return [
    JSON.stringify(header),
    e({ type: "session", event: "start", sessionId: "abc" }),
    post(1),
    e({
      type: "message",
      x: 1,
      dir: "c2s",
      msg: { jsonrpc: "2.0", id: 1, method: "initialize", params: {} },
    }),
    e({ type: "http-response", x: 1, status: 200, headers: {}, body: "json" }),
    e({ type: "message", x: 1, dir: "s2c", msg: { jsonrpc: "2.0", id: 1, result: {} } }),
    e({ type: "http-end", x: 1, reason: "complete" }),
    post(2),
    e({
      type: "message",
      x: 2,
      dir: "c2s",
      msg: { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "slow" } },
    }),
    e({ type: "http-response", x: 2, status: 200, headers: {}, body: "sse" }),
    e({ type: "sse-event", x: 2, sse: { id: "0", stream: "post" }, data: "" }),
    e({
      type: "message",
      x: 2,
      dir: "s2c",
      sse: { stream: "post" },
      msg: { jsonrpc: "2.0", id: 2, result: { content: [] } },
    }),
    e({ type: "http-end", x: 2, reason: "complete" }),
    e({ type: "http-request", x: 3, method: "GET", path: "/mcp", headers: {} }),
    e({ type: "http-response", x: 3, status: 200, headers: {}, body: "sse" }),
    e({ type: "http-end", x: 3, reason: "client-closed" }),
    e({ type: "session", event: "end", reason: "deleted" }),
  ];
}

test("prune drops an HTTP exchange's request, response, events and end with its messages", async () => {
  const dir = tempDir();
  try {
    const file = path.join(dir, "h.cassette.jsonl");
    writeCassette(file, httpCassette());
    const original = fileLines(file);
    const report = path.join(dir, "run.json");
    writeFileSync(report, reportFor(file, {}));
    const result = await run([...CLI, "prune", file, "--report", report]);
    assert.equal(result.code, 0, result.stderr);
    assert.deepEqual(fileLines(file), without(original, range(8, 13)));
    assert.match(result.stdout, /line 9: tools\/call slow \(\+5 lines it brought\)/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("prune refuses bad input with one line, exit 2, and leaves everything as it was", async () => {
  const dir = tempDir();
  try {
    const file = path.join(dir, "w.cassette.jsonl");
    writeCassette(file, toolCassette({ calls: 2 }));
    const before = readFileSync(file, "utf8");
    const other = path.join(dir, "other.cassette.jsonl");
    writeCassette(
      other,
      toolCassette({ calls: 5 }).map((l, i) => i === 0 ? l.replace("09:00", "10:00") : l),
    );
    const foreign = path.join(dir, "foreign.json");
    writeFileSync(foreign, reportFor(other, {}));
    const garbled = path.join(dir, "garbled.json");
    writeFileSync(garbled, "{");
    const cases: [string[], RegExp][] = [
      [[file], /prune needs at least one --report/],
      [[file, "--report", foreign], /foreign\.json: written for another cassette/],
      [[file, "--report", garbled], /garbled\.json: not a JSON report/],
      [[path.join(dir, "nope.jsonl"), "--report", foreign], /nope\.jsonl.*no such file/],
    ];
    for (const [args, message] of cases) {
      const result = await run([...CLI, "prune", ...args]);
      assert.equal(result.code, 2, `${args.join(" ")}: ${result.stdout}${result.stderr}`);
      assert.match(result.stderr, message);
      assert.equal(result.stderr.trim().split("\n").length, 1, result.stderr);
      assert.equal(readFileSync(file, "utf8"), before);
    }
    assert.deepEqual(readdirSync(dir).sort(), [
      "foreign.json",
      "garbled.json",
      "other.cassette.jsonl",
      "w.cassette.jsonl",
    ]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("prune --report FOLDER reads a suite's reports and passes over other cassettes'", async () => {
  const dir = tempDir();
  try {
    const file = path.join(dir, "w.cassette.jsonl");
    writeCassette(file, toolCassette({ calls: 4 }));
    const original = fileLines(file);
    const other = path.join(dir, "other.cassette.jsonl");
    writeCassette(
      other,
      toolCassette({ calls: 4 }).map((l, i) => i === 0 ? l.replace("09:00", "10:00") : l),
    );
    const folder = path.join(dir, "reports");
    mkdirSync(folder);
    writeFileSync(path.join(folder, "w.1.report.json"), reportFor(file, { 7: { played: 1 } }));
    writeFileSync(path.join(folder, "w.2.report.json"), reportFor(file, { 9: { played: 1 } }));
    // The other cassette's report asks for call 2: it must not keep ours.
    writeFileSync(
      path.join(folder, "other.1.report.json"),
      reportFor(other, { 11: { played: 1 } }),
    );
    writeFileSync(path.join(folder, "notes.txt"), "not a report");
    const result = await run([...CLI, "prune", file, "--report", folder, "--dry-run"]);
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /\(2 report\(s\)\)/);
    const pruned = await run([...CLI, "prune", file, "--report", `${folder}/`]);
    assert.equal(pruned.code, 0, pruned.stderr);
    assert.deepEqual(fileLines(file), without(original, range(11, 19)));

    const only = path.join(dir, "only-other");
    mkdirSync(only);
    writeFileSync(path.join(only, "other.json"), reportFor(other, {}));
    const refused = await run([...CLI, "prune", other.replace("other", "w"), "--report", only]);
    assert.equal(refused.code, 2);
    assert.match(refused.stderr, /only-other: no report in the folder was written for/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
