/**
 * The library's run log lives in a temp folder of its own
 * (`mcp-cassette-run-*`), one per start: it must be gone once a start has
 * failed or its server has finished, else every test run leaves folders in
 * the machine's temp folder, and gone too when the process ends without
 * finishing it. The starts run in a child whose TMPDIR is this test's own
 * folder, so the folders it leaves can be counted.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { copyFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { DENO, ROOT, run, tempDir } from "../helpers.ts";
import { BUN_BIN } from "../dist/_runtimes.ts";

const GOLDEN = path.join(ROOT, "examples/runners/node/cassettes/adds-two-numbers.cassette.jsonl");
const SCRIPT = path.join(ROOT, "tests/api/fixtures/run_dirs.ts");

/** Runs a scenario with TMPDIR its own; returns the step lines and the run folders left. */
async function leftAfter(
  scenario: string,
  runner: string[] = [DENO, "run", "-A", "--no-check"],
): Promise<{ steps: string; left: string[] }> {
  const tmp = tempDir("mcp-cassette-tmpdir-");
  const cassette = path.join(tempDir(), "adds.cassette.jsonl");
  copyFileSync(GOLDEN, cassette);
  const result = await run([...runner, SCRIPT, scenario, cassette], {
    env: { TMPDIR: tmp },
  });
  assert.equal(result.code, 0, result.stderr);
  const left = readdirSync(tmp).filter((name) => name.startsWith("mcp-cassette-run-"));
  return { steps: result.stdout, left };
}

test("a start that throws leaves no run folder behind", async () => {
  const { steps, left } = await leftAfter("failed-start");
  assert.match(steps, /"spy without server","error":"onMiss \\"live\\" needs the live server/);
  assert.match(steps, /"unset secret","error":"[^"]*MCP_CASSETTE_NO_SUCH_SECRET is not set/);
  assert.deepEqual(left, []);
});

test("a server finished before any launch leaves no run folder behind", async () => {
  const { steps, left } = await leftAfter("stopped");
  assert.equal(steps.trim(), JSON.stringify({ what: "finish before any launch" }));
  assert.deepEqual(left, []);
});

test("a server finished after its replay leaves no run folder behind", async () => {
  const { steps, left } = await leftAfter("replayed");
  assert.equal(steps.trim(), JSON.stringify({ what: "replay then finish" }));
  assert.deepEqual(left, []);
});

for (const [name, runner] of [["Deno", undefined], ["Bun", [BUN_BIN]]] as const) {
  test(`a server never finished leaves no run folder behind once the process ends (${name})`, async () => {
    const { steps, left } = await leftAfter("abandoned", runner ? [...runner] : undefined);
    assert.equal(steps.trim(), JSON.stringify({ what: "replay then exit" }));
    assert.deepEqual(left, []);
  });
}
