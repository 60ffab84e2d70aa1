/**
 * Accounting adds up: identical requests are credited to distinct identical
 * recordings before any repeat, a miss names every differing argument, and
 * the "recorded:" list of a miss says when it is cut. Our SDK-free Python
 * server recorded and replayed through real pipes.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { tempDir } from "../helpers.ts";
import { call, opening, recordEcho, replayLines } from "./echo.ts";

const A = (id: string) => call(id, "divide", { a: 1, b: 4 });
const B = (id: string) => call(id, "divide", { a: 9, b: 3 });

test("recorded A, B, A replayed B, A, A: both A recordings are used, none repeated, exit 0", async () => {
  const dir = tempDir();
  const file = path.join(dir, "aba.jsonl");
  await recordEcho(file, [...opening(), A("2"), B("3"), A("4")]);
  const report = path.join(dir, "report.json");
  const result = await replayLines(file, [...opening(), B("2"), A("3"), A("4")], {}, [
    "--fail-on-unplayed",
    "--report",
    report,
  ]);
  assert.equal(result.code, 0, result.stderr);
  const answers = result.stdout.trim().split("\n").map((line) => JSON.parse(line));
  assert.deepEqual(answers.slice(1).map((answer) => answer.result.content[0].text), [
    "3.0",
    "0.25",
    "0.25",
  ]);
  const json = JSON.parse(readFileSync(report, "utf8"));
  assert.deepEqual(json.repeats, []);
  assert.deepEqual(json.unplayed, []);
  assert.doesNotMatch(result.stderr, /repeat|never asked/);
});

test("a miss names every differing argument, and a cut recorded: list says so", async () => {
  const file = path.join(tempDir(), "miss.jsonl");
  const methods = Array.from(
    { length: 10 },
    (_, n) => `{"jsonrpc":"2.0","id":${n + 10},"method":"m/${n}"}`,
  );
  await recordEcho(file, [...opening(), A("2"), ...methods]);
  const result = await replayLines(file, [
    ...opening(),
    call("2", "divide", { a: 2, b: 8 }),
    `{"jsonrpc":"2.0","id":3,"method":"nope/x"}`,
  ]);
  assert.equal(result.code, 3);
  assert.match(
    result.stdout,
    /differs at params\.arguments\.a \(recorded 1, got 2\), params\.arguments\.b \(recorded 4, got 8\)"/,
  );
  assert.match(result.stdout, /\(recorded: initialize, m\/0, .* and 5 more\)/);
});
