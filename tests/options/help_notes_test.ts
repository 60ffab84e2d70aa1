/**
 * The notes help adds after an option's description come once: an option
 * whose description already says "repeatable" is not told so twice, in
 * `--help` or in docs/cli.md.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { CLI, run } from "../helpers.ts";
import { COMMAND_OPTIONS } from "../../src/options/all.ts";

const twice = /repeatable\b.*\brepeatable\b/i;

test("--help of every command says 'repeatable' at most once per option", async () => {
  for (const name of Object.keys(COMMAND_OPTIONS)) {
    const result = await run([...CLI, name, "--help"]);
    assert.equal(result.code, 0, name);
    const doubled = result.stdout.split("\n").filter((line) => twice.test(line));
    assert.deepEqual(doubled, [], `${name} --help`);
  }
  // The two that used to say it twice are still marked repeatable.
  const replay = await run([...CLI, "replay", "--help"]);
  assert.match(replay.stdout, /--match-ignore PATH .*repeatable/);
  const wrap = await run([...CLI, "wrap", "--help"]);
  assert.match(wrap.stdout, /--server NAME .*repeatable/);
});

test("docs/cli.md says 'repeatable' at most once per option", () => {
  const text = readFileSync(new URL("../../docs/cli.md", import.meta.url), "utf8");
  assert.deepEqual(text.split("\n").filter((line) => twice.test(line)), []);
});
