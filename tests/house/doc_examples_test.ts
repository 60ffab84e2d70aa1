/**
 * The `@example` blocks of the public API (mod.ts) run as they are written,
 * against cassettes committed in the repository: `deno test --doc mod.ts`,
 * the same as `deno task test:doc`.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { DENO, ROOT, run } from "../helpers.ts";

test("every example in mod.ts runs and passes under deno test --doc", async () => {
  const text = fs.readFileSync(path.join(ROOT, "mod.ts"), "utf8");
  const blocks = text.split("\n").filter((line) => line.trim() === "* ```ts").length;
  assert.ok(blocks >= 5, `mod.ts has ${blocks} examples`);
  // The examples say what they replay; a mode from the environment would change that.
  const result = await run([DENO, "test", "--doc", "--no-check", "-A", "mod.ts"], {
    env: { MCP_CASSETTE_MODE: undefined },
    timeoutMs: 180_000,
  });
  const output = result.stdout + result.stderr;
  assert.equal(result.code, 0, output);
  const passed = /ok \| (\d+) passed/.exec(output); // plain text: run() sets NO_COLOR
  assert.equal(Number(passed?.[1]), blocks, output);
});
