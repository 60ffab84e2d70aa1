/**
 * Mistakes get helpful answers: a mistyped flag or command is one line with
 * the closest name and a pointer to --help; a server that cannot start is
 * reported with its own reason.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import { rmSync } from "node:fs";
import { closestName, editDistance } from "../../src/options/suggest.ts";
import { failureReason } from "../../src/check/start_failure.ts";
import { CLI, NODE, run, tempDir } from "../helpers.ts";

test("editDistance and closestName: transpositions, typos, prefixes, and nothing for strangers", () => {
  assert.equal(editDistance("strcit", "strict"), 2);
  assert.equal(editDistance("", "abc"), 3);
  assert.equal(editDistance("kitten", "sitting"), 3);
  assert.equal(closestName("strcit", ["strict", "seed", "listen"]), "strict");
  assert.equal(closestName("fail-on-unplyed", ["fail-on-unplayed", "faults"]), "fail-on-unplayed");
  assert.equal(closestName("new-ep", ["new-episodes", "listen"]), "new-episodes");
  assert.equal(closestName("zzzzzz", ["strict", "seed"]), undefined);
});

test("a mistyped flag: one line naming the closest flag, a hint to --help, exit 2", async () => {
  const result = await run([...CLI, "replay", "x.jsonl", "--strcit"]);
  assert.equal(result.code, 2);
  assert.equal(
    result.stderr,
    "mcp-cassette replay: Unknown option '--strcit'. Did you mean '--strict'?\n" +
      "Run 'mcp-cassette replay --help' for the options.\n",
  );
  const far = await run([...CLI, "lint", "--qwertyuiop"]);
  assert.equal(far.code, 2);
  assert.equal(
    far.stderr,
    "mcp-cassette lint: Unknown option '--qwertyuiop'\nRun 'mcp-cassette lint --help' for the options.\n",
  );
  const noValue = await run([...CLI, "verify", "x.jsonl", "--min-grade"]);
  assert.equal(noValue.code, 2);
  assert.equal(noValue.stderr.trim().split("\n").length, 2, noValue.stderr);
});

test("a mistyped command: one line naming the closest command, exit 2", async () => {
  const result = await run([...CLI, "replya", "x.jsonl"]);
  assert.equal(result.code, 2);
  assert.equal(
    result.stderr,
    "mcp-cassette: Unknown command 'replya'. Did you mean 'replay'?\n" +
      "Run 'mcp-cassette --help' for the commands.\n",
  );
  assert.match((await run([...CLI, "verfy"])).stderr, /Did you mean 'verify'\?/);
  const option = await run([...CLI, "--verison"]);
  assert.equal(option.code, 2);
  assert.match(
    option.stderr,
    /^mcp-cassette: Unknown option '--verison'\. Did you mean '--version'\?\n/,
  );
});

test("check -- node missing.js: the server's own reason (Cannot find module), not its last stderr line", async () => {
  const dir = tempDir();
  try {
    const missing = path.join(dir, "missing.js");
    const result = await run([...CLI, "check", "--", NODE, missing]);
    assert.equal(result.code, 7, result.stderr);
    const lines = result.stderr.trim().split("\n");
    assert.equal(lines.length, 1, result.stderr);
    assert.match(lines[0], /exited with code 1 before completing initialize/);
    assert.match(lines[0], /Error: Cannot find module '.*missing\.js'/);
    assert.doesNotMatch(lines[0], /Node\.js v/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("failureReason: the line that states the error, from Node, Python and Deno; else the last telling line", () => {
  const node = [
    "node:internal/modules/cjs/loader:1210",
    "  throw err;",
    "  ^",
    "",
    "Error: Cannot find module '/srv/missing.js'",
    "    at Module._resolveFilename (node:internal/modules/cjs/loader:1207:15)",
    "  code: 'MODULE_NOT_FOUND',",
    "  requireStack: []",
    "}",
    "",
    "Node.js v20.20.2",
  ];
  assert.equal(failureReason(node), "Error: Cannot find module '/srv/missing.js'");
  const python = [
    "Traceback (most recent call last):",
    '  File "/srv/server.py", line 1, in <module>',
    "    import nosuch",
    "ModuleNotFoundError: No module named 'nosuch'",
  ];
  assert.equal(failureReason(python), "ModuleNotFoundError: No module named 'nosuch'");
  assert.equal(
    failureReason(['error: Module not found "file:///srv/main.ts".']),
    'error: Module not found "file:///srv/main.ts".',
  );
  assert.equal(
    failureReason(["starting", "port 8080 already in use", "Node.js v20.20.2"]),
    "port 8080 already in use",
  );
  assert.equal(failureReason([]), undefined);
});
