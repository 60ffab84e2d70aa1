/**
 * Output goes with the request that caused it, a recording that never got
 * its answer fails fast, and both front ends answer alike.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { CassetteError, startCassette } from "../../mod.ts";
import { CLI, ROOT, run, tempDir } from "../helpers.ts";
import { startBackground, URL_LINE } from "../http/http_helpers.ts";

const SERVER = ["python3", path.join(ROOT, "tests/fixtures/trust/weather_server.py")];

const initialize = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: {
    protocolVersion: "2025-03-26",
    capabilities: {},
    clientInfo: { name: "answers", version: "1" },
  },
};
const initialized = { jsonrpc: "2.0", method: "notifications/initialized" };

function call(id: number, name: string, args: Record<string, unknown>) {
  return { jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: args } };
}

function lines(...messages: unknown[]): string {
  return messages.map((message) => JSON.stringify(message)).join("\n") + "\n";
}

function scratch(t: { after: (fn: () => void) => void }): string {
  const dir = tempDir();
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

test("pipelined requests: what the server said while answering the first goes with the first", async (t) => {
  const cassette = path.join(scratch(t), "pipelined.cassette.jsonl");
  // Both calls written before the first answer: the server logs, answers, logs, answers.
  const input = lines(
    initialize,
    initialized,
    call(2, "slow", { label: "A" }),
    call(3, "slow", { label: "B" }),
  );
  const live = await run([...CLI, "record", "-o", cassette, "--", ...SERVER], { input });
  assert.equal(live.code, 0, live.stderr);
  const replayed = await run([...CLI, "replay", cassette], { input });
  // The same lines; each request's log line before its own answer (the two
  // requests are served side by side, so they may interleave otherwise).
  const sorted = (text: string) => text.trim().split("\n").sort();
  assert.deepEqual(sorted(replayed.stdout), sorted(live.stdout));
  const at = (pattern: RegExp) =>
    replayed.stdout.trim().split("\n").findIndex((l) => pattern.test(l));
  assert.ok(at(/working on A/) < at(/"id": 2,/), replayed.stdout);
  assert.ok(at(/working on B/) < at(/"id": 3,/), replayed.stdout);
  // A alone: its own log line comes with it, and B's does not.
  const alone = await run([...CLI, "replay", cassette], {
    input: lines(initialize, initialized, call(2, "slow", { label: "A" })),
  });
  assert.match(alone.stdout, /working on A/);
  assert.doesNotMatch(alone.stdout, /working on B/);
  // B asked twice: its log line is sent once per recording of it, not with the repeat.
  const twice = await run([...CLI, "replay", cassette], {
    input: lines(
      initialize,
      initialized,
      call(3, "slow", { label: "B" }),
      call(4, "slow", { label: "B" }),
    ),
  });
  assert.equal((twice.stdout.match(/working on B/g) ?? []).length, 2, twice.stdout);
});

test("a recorded request without its answer is answered at once with an error, not left to time out", async (t) => {
  const dir = scratch(t);
  const full = path.join(dir, "full.cassette.jsonl");
  const input = lines(initialize, initialized, call(2, "weather", { city: "Lisbon" }));
  assert.equal((await run([...CLI, "record", "-o", full, "--", ...SERVER], { input })).code, 0);
  const entries = readFileSync(full, "utf8").trim().split("\n");
  const cutAfter = (predicate: (line: string) => boolean, name: string) => {
    const at = entries.findIndex(predicate);
    const cut = path.join(dir, name);
    writeFileSync(cut, entries.slice(0, at + 1).join("\n") + "\n");
    return cut;
  };
  const noCallAnswer = cutAfter(
    (line) => line.includes('"c2s"') && line.includes("weather"),
    "cut.cassette.jsonl",
  );
  const cut = await run([...CLI, "replay", noCallAnswer], { input });
  assert.equal(cut.code, 3, cut.stderr);
  const answer = cut.stdout.trim().split("\n").map((line) => JSON.parse(line)).find((m) =>
    m.id === 2
  );
  assert.equal(answer?.error?.code, -32001, cut.stdout);
  assert.match(
    answer.error.message,
    /The recording holds no answer for tools\/call weather \(cassette line \d+\)/,
  );
  const noInit = cutAfter((line) => line.includes('"initialize"'), "no-init.cassette.jsonl");
  const init = await run([...CLI, "replay", noInit], { input: lines(initialize) });
  assert.match(JSON.parse(init.stdout.trim()).error.message, /holds no answer for initialize/);
});

test("a server that exits before answering anything leaves no cassette, and the previous one as it was", async (t) => {
  const dir = scratch(t);
  const dying = ["python3", "-c", "import sys; sys.stdin.readline(); sys.exit(3)"];
  const fresh = path.join(dir, "fresh.cassette.jsonl");
  const none = await run([...CLI, "record", "-o", fresh, "--", ...dying], {
    input: lines(initialize),
  });
  assert.equal(none.code, 7, none.stderr);
  assert.match(none.stderr, /exited \(code 3\) before answering any request: no cassette was kept/);
  assert.equal(existsSync(fresh), false);
  // With a good cassette already there, re-recording with a dead server keeps it byte for byte.
  const kept = path.join(dir, "kept.cassette.jsonl");
  const input = lines(initialize, initialized, call(2, "weather", { city: "Lisbon" }));
  assert.equal((await run([...CLI, "record", "-o", kept, "--", ...SERVER], { input })).code, 0);
  const before = readFileSync(kept, "utf8");
  const again = await run([...CLI, "record", "-o", kept, "--mode", "all", "--", ...dying], {
    input: lines(initialize),
  });
  assert.equal(again.code, 7, again.stderr);
  assert.match(again.stderr, /is unchanged/);
  assert.equal(readFileSync(kept, "utf8"), before);
  // The helpers: finish() throws the recorder's reason.
  const server = await startCassette({
    path: path.join(dir, "helper.cassette.jsonl"),
    server: dying,
  });
  await run([server.command, ...server.args], { input: lines(initialize) });
  await assert.rejects(
    server.finish(),
    (error: unknown) =>
      error instanceof CassetteError && /before answering any request/.test(error.message),
  );
});

test("stdio and HTTP answer a batch with a bad member alike: the good member answered, the bad one refused, in one array", async (t) => {
  const cassette = path.join(scratch(t), "batch.cassette.jsonl");
  const input = lines(initialize, initialized, call(2, "weather", { city: "Lisbon" }));
  assert.equal((await run([...CLI, "record", "-o", cassette, "--", ...SERVER], { input })).code, 0);
  const batch = [call(7, "weather", { city: "Lisbon" }), 42];
  const stdio = await run([...CLI, "replay", cassette], {
    input: lines(initialize, initialized, batch),
  });
  const stdioArray = JSON.parse(stdio.stdout.trim().split("\n")[1]);
  const replay = await startBackground(
    [...CLI, "replay", cassette, "--listen", "127.0.0.1:0"],
    URL_LINE,
  );
  t.after(() => replay.stop());
  const headers = {
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
  };
  const opened = await fetch(replay.found, {
    method: "POST",
    headers,
    body: JSON.stringify(initialize),
  });
  await opened.text();
  const sessionId = opened.headers.get("mcp-session-id");
  const more = {
    ...headers,
    ...(sessionId ? { "mcp-session-id": sessionId } : {}),
    "mcp-protocol-version": "2025-03-26",
  };
  const response = await fetch(replay.found, {
    method: "POST",
    headers: more,
    body: JSON.stringify(batch),
  });
  assert.equal(response.status, 200);
  const httpArray = JSON.parse(await response.text());
  for (const answers of [stdioArray, httpArray]) {
    assert.equal(answers.length, 2, JSON.stringify(answers));
    assert.equal(
      answers.find((a: { id: unknown }) => a.id === 7)?.result.structuredContent.city,
      "Lisbon",
    );
    assert.equal(answers.find((a: { id: unknown }) => a.id === null)?.error.code, -32600);
  }
});

test("a batch past the limit: its first 1,000 members answered, the rest refused with one error; -q prints a few misses, not all", async (t) => {
  const cassette = path.join(scratch(t), "limit.cassette.jsonl");
  const input = lines(initialize, initialized, call(2, "weather", { city: "Lisbon" }));
  assert.equal((await run([...CLI, "record", "-o", cassette, "--", ...SERVER], { input })).code, 0);
  const batch = Array.from({ length: 1500 }, (_, i) => call(100 + i, "weather", { city: `c${i}` }));
  const replayed = await run([...CLI, "replay", "-q", cassette], {
    input: lines(initialize, initialized, batch),
  });
  assert.equal(replayed.code, 3, replayed.stderr.slice(0, 500));
  const answers = JSON.parse(replayed.stdout.trim().split("\n")[1]);
  assert.equal(answers.length, 1001);
  assert.match(answers.at(-1).error.message, /Batch of 1500 messages refused|at most 1000/);
  const stderrLines = replayed.stderr.trim().split("\n");
  assert.ok(stderrLines.length <= 12, `${stderrLines.length} lines on stderr under -q`);
  assert.match(replayed.stderr, /and 990 more/);
});

test("a cassette line whose frame text is not JSON is one error naming the file and line, exit 2", async (t) => {
  const dir = scratch(t);
  const cassette = path.join(dir, "bad-frame.cassette.jsonl");
  const input = lines(initialize, initialized, call(2, "weather", { city: "Lisbon" }));
  assert.equal((await run([...CLI, "record", "-o", cassette, "--", ...SERVER], { input })).code, 0);
  const entries = readFileSync(cassette, "utf8").trim().split("\n");
  const at = entries.findIndex((line) => line.includes('"s2c"'));
  const entry = JSON.parse(entries[at]);
  entries[at] = JSON.stringify({ ...entry, frame: '{"jsonrpc": "2.0", "id": 1, "result": {' });
  writeFileSync(cassette, entries.join("\n") + "\n");
  const replayed = await run([...CLI, "replay", cassette], { input: lines(initialize) });
  assert.equal(replayed.code, 2, replayed.stderr);
  assert.match(
    replayed.stderr,
    new RegExp(`bad-frame\\.cassette\\.jsonl:${at + 1}.*frame text is not valid JSON`),
  );
  assert.equal(replayed.stderr.trim().split("\n").length, 1, replayed.stderr);
});
