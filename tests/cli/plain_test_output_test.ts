/**
 * `npm test` into a pipe (a CI log, a saved report) carries no ANSI colour
 * codes: Deno's test runner colours its report even there unless told not
 * to, and scripts/test.ts tells it so when stdout is not a terminal.
 * FORCE_COLOR still asks for colour.
 */
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { ROOT, run, tempDir } from "../helpers.ts";

const work = tempDir("mcp-cassette-plain-test-");
after(() => rmSync(work, { recursive: true, force: true }));

test("npm test: a plain report on a pipe, coloured only when FORCE_COLOR asks", async () => {
  const file = path.join(work, "tiny_test.ts");
  writeFileSync(
    file,
    'import { test } from "node:test";\ntest("passes", () => {});\n',
  );
  const plain = await run(["npm", "test", "--silent", "--", file], {
    cwd: ROOT,
    env: { NO_COLOR: undefined, FORCE_COLOR: undefined },
  });
  assert.equal(plain.code, 0, plain.stdout + plain.stderr);
  assert.match(plain.stdout, /ok \| 1 passed \| 0 failed/);
  assert.ok(!(plain.stdout + plain.stderr).includes("\x1b["), JSON.stringify(plain.stdout));

  const forced = await run(["npm", "test", "--silent", "--", file], {
    cwd: ROOT,
    env: { NO_COLOR: undefined, FORCE_COLOR: "1" },
  });
  assert.equal(forced.code, 0, forced.stdout + forced.stderr);
  assert.ok(forced.stdout.includes("\x1b["), forced.stdout);
});
