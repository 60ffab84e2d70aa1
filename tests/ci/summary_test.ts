/**
 * scripts/ci_summary.ts, the counting at the end of .ci/run, over real logs:
 * `deno test` and `bun test` run tests/fixtures/ci/mixed.ts (a pass, a
 * failure, a static skip and a run-time skip), and the summary must count
 * each under both runners, and fail on a skip the allowlist does not name.
 */
import { before, test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { CLI, DENO, ROOT, run, tempDir } from "../helpers.ts";
import { BUN } from "../reliability/_helpers.ts";

const dir = tempDir("mcp-cassette-ci-summary-");
const denoLog = path.join(dir, "deno.log");
const bunLog = path.join(dir, "bun.log");

before(async () => {
  const fixture = "./tests/fixtures/ci/mixed.ts";
  const deno = await run([DENO, "test", "-A", "--no-check", fixture]);
  writeFileSync(denoLog, deno.stdout + deno.stderr);
  const bun = await run([BUN, "test", fixture]);
  writeFileSync(bunLog, bun.stdout + bun.stderr);
});

function summary(root: string, extra: string[] = []) {
  return run([
    ...CLI.slice(0, 3),
    path.join(ROOT, "scripts/ci_summary.ts"),
    "--deno",
    denoLog,
    "--bun",
    bunLog,
    "--root",
    root,
    ...extra,
  ]);
}

function rootWith(allowlist: string): string {
  const root = path.join(dir, `root-${Math.random().toString(36).slice(2)}`);
  mkdirSync(path.join(root, "tests"), { recursive: true });
  writeFileSync(path.join(root, "tests/allowed_skips.txt"), allowlist);
  return root;
}

test("ci summary: passes, failures and both kinds of skip counted under Deno and Bun", async () => {
  const result = await summary(rootWith("^fixture skipped  # the fixture skips on purpose\n"));
  assert.equal(result.code, 1, "a failed test fails the run");
  const lines = result.stdout.trimEnd().split("\n");
  // Deno reports a run-time skip as passed: it must not be counted so.
  assert.ok(lines.includes("Deno: 1 passed, 1 failed, 2 skipped"), result.stdout);
  assert.ok(lines.includes("Bun: 1 passed, 1 failed, 2 skipped"), result.stdout);
  assert.equal(lines.at(-1), "2 passed, 2 failed, 4 skipped");
  assert.doesNotMatch(result.stdout, /UNEXPECTED/);
});

test("ci summary: a skip the allowlist does not name fails the run and is named", async () => {
  const result = await summary(rootWith("^fixture skipped statically  # only this one\n"));
  assert.match(
    result.stdout,
    /Deno: UNEXPECTED SKIP "fixture skipped at run time"/,
  );
  assert.match(result.stdout, /Bun: UNEXPECTED SKIP "fixture skipped at run time"/);
  assert.doesNotMatch(result.stdout, /UNEXPECTED SKIP "fixture skipped statically"/);
  assert.equal(result.code, 1);
});

test("ci summary: an allowlist line without a reason is refused, naming the line", async () => {
  const result = await summary(rootWith("# comment\n^fixture skipped\n"));
  assert.notEqual(result.code, 0);
  assert.match(result.stdout + result.stderr, /tests\/allowed_skips\.txt:2: no reason/);
});

test("ci summary: a failed check or a runner without its summary is a failure", async () => {
  const root = rootWith("^fixture  # all of them\n");
  const empty = path.join(dir, "empty.log");
  writeFileSync(empty, "error: the runner crashed\n");
  const result = await run([
    ...CLI.slice(0, 3),
    path.join(ROOT, "scripts/ci_summary.ts"),
    "--bun",
    empty,
    "--root",
    root,
    "--check",
    "deno fmt --check=0",
    "--check",
    "deno check=1",
  ]);
  assert.equal(result.code, 1);
  assert.match(result.stdout, /Bun: no summary in its log/);
  assert.match(result.stdout, /deno check: exited 1/);
  assert.equal(result.stdout.trimEnd().split("\n").at(-1), "1 passed, 2 failed, 0 skipped");
});
