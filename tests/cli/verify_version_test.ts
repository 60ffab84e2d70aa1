/**
 * verify against two builds of an official-SDK server that differ only in
 * serverInfo.version: the version is information, not a regression, unless
 * --version-is-regression asks for it.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import { rmSync } from "node:fs";
import { recordScript, toolCall } from "../../src/demo/record_script.ts";
import { CLI, NODE, ROOT, run, tempDir } from "../helpers.ts";

const SERVER = path.join(ROOT, "tests/cli/fixtures/versioned_server.mjs");

async function recordedAgainst(version: string, dir: string): Promise<string> {
  const cassette = path.join(dir, "adder.cassette.jsonl");
  await recordScript([NODE, SERVER, version], [
    { method: "tools/list", params: {} },
    toolCall("add", { a: 2, b: 3 }),
  ], cassette);
  return cassette;
}

test("verify: a new build whose only change is serverInfo.version passes, the version shown as info", async () => {
  const dir = tempDir();
  try {
    const cassette = await recordedAgainst("1.0.0", dir);
    const text = await run([
      ...CLI,
      "verify",
      cassette,
      "--fail-on-regression",
      "--",
      NODE,
      SERVER,
      "1.1.0",
    ]);
    assert.equal(text.code, 0, text.stdout + text.stderr);
    assert.match(
      text.stdout,
      /PASS #1 initialize\n\s+info \$\.result\.serverInfo\.version: "1\.0\.0" → "1\.1\.0"/,
    );
    assert.match(text.stdout, /grade A \(100\.0\/100\): 3 passed, 0 failed/);
    const json = await run([...CLI, "verify", cassette, "--json", "--", NODE, SERVER, "1.1.0"]);
    const report = JSON.parse(json.stdout);
    const initialize = report.exchanges.find((e: { method: string }) => e.method === "initialize");
    assert.equal(initialize.status, "pass");
    assert.deepEqual(initialize.regressions, []);
    assert.equal(initialize.info[0].path, "$.result.serverInfo.version");
    assert.equal(report.failed, 0);
    // Colour: forced with FORCE_COLOR=1 on a pipe, and NO_COLOR beats it.
    const args = [...CLI, "verify", cassette, "--", NODE, SERVER, "1.1.0"];
    const forced = await run(args, { env: { NO_COLOR: undefined, FORCE_COLOR: "1" } });
    assert.ok(forced.stdout.includes("\x1b[32mPASS\x1b[0m #1 initialize"), forced.stdout);
    const vetoed = await run(args, { env: { NO_COLOR: "1", FORCE_COLOR: "1" } });
    assert.ok(!vetoed.stdout.includes("\x1b["), vetoed.stdout);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("verify --version-is-regression: the changed version fails the initialize exchange again", async () => {
  const dir = tempDir();
  try {
    const cassette = await recordedAgainst("1.0.0", dir);
    const result = await run([
      ...CLI,
      "verify",
      cassette,
      "--version-is-regression",
      "--fail-on-regression",
      "--",
      NODE,
      SERVER,
      "1.1.0",
    ]);
    assert.equal(result.code, 1, result.stdout + result.stderr);
    assert.match(
      result.stdout,
      /FAIL #1 initialize {2}value-change\n\s+\$\.result\.serverInfo\.version: "1\.0\.0" → "1\.1\.0"/,
    );
    // The same build still passes with the flag: only a change is graded.
    const same = await run([
      ...CLI,
      "verify",
      cassette,
      "--version-is-regression",
      "--fail-on-regression",
      "--",
      NODE,
      SERVER,
      "1.0.0",
    ]);
    assert.equal(same.code, 0, same.stdout + same.stderr);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
