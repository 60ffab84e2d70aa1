/**
 * tempDir() (tests/helpers.ts) removes what it made once the test file is
 * done, under Deno and under Bun, and not before: a folder made at load time
 * or in one test is still there in the next.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { DENO, run } from "../helpers.ts";
import { BUN } from "../reliability/_helpers.ts";

const FIXTURE = "./tests/fixtures/ci/temp_dirs.ts";

for (
  const [runner, command] of [
    ["Deno", [DENO, "test", "-A", "--no-check", FIXTURE]],
    ["Bun", [BUN, "test", FIXTURE]],
  ] as const
) {
  test(`tempDir() folders last the whole test file and are gone after it: ${runner}`, async () => {
    const result = await run(command);
    assert.equal(result.code, 0, result.stdout + result.stderr);
    const line = (result.stdout + result.stderr).split("\n").find((l) => l.includes("made: "));
    assert.ok(line, result.stdout + result.stderr);
    const made: string[] = JSON.parse(line.slice(line.indexOf("made: ") + 6));
    assert.equal(made.length, 3);
    assert.deepEqual(made.filter((dir) => existsSync(dir)), [], "left behind");
  });
}
