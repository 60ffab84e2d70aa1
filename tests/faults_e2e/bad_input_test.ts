/**
 * Bad input is refused up front: a fault overlay that does not parse, names an
 * unknown kind or targets nothing stops `replay --faults` with exit 2 and one
 * line naming the file, the entry and the problem; a TOML rule pack with an
 * invalid regex stops `record --pack` the same way. Each command runs with
 * its stdin held open and never written: exiting on its own proves it did
 * not wait to read it (nor, for record, start serving).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import { CLI, EVERYTHING, tempDir } from "../helpers.ts";
import { runWithOpenStdin, writeFile } from "./_shared.ts";

const dir = tempDir("mcp-cassette-bad-input-");
// A valid cassette with no sessions: only the overlay is wrong.
const cassette = writeFile(
  dir,
  "minimal.cassette.jsonl",
  JSON.stringify({
    format: "mcp-cassette",
    version: 1,
    recorder: "test",
    created: new Date(0).toISOString(),
    transport: "stdio",
  }) + "\n",
);

function assertOneLineRefusal(
  result: Awaited<ReturnType<typeof runWithOpenStdin>>,
  pattern: RegExp,
) {
  assert.equal(result.signal, null, `killed: it waited for stdin\n${result.stderr}`);
  assert.equal(result.code, 2, result.stderr);
  assert.equal(result.stdout, "");
  const lines = result.stderr.trim().split("\n");
  assert.equal(lines.length, 1, result.stderr);
  assert.match(lines[0], pattern);
  assert.doesNotMatch(result.stderr, /\bat .*\.ts:\d+/, "no stack trace");
}

test("replay --faults: an overlay that does not parse → exit 2, file:line:column and the problem", async () => {
  const faults = writeFile(
    dir,
    "broken.faults.json",
    '{ "faults": [ { "match": { "tool": "echo" } "fault": {} } ] }',
  );
  const result = await runWithOpenStdin([...CLI, "replay", "--faults", faults, cassette]);
  assertOneLineRefusal(result, /broken\.faults\.json:1:\d+: not valid JSON\/JSONC/);
});

test("replay --faults: an unknown kind → exit 2, the file, the entry and the known kinds", async () => {
  const faults = writeFile(dir, "unknown.faults.json", {
    faults: [
      { match: { tool: "echo" }, fault: { kind: "delay", ms: 1 } },
      { name: "boom", match: { tool: "echo" }, fault: { kind: "explode" } },
    ],
  });
  const result = await runWithOpenStdin([...CLI, "replay", "--faults", faults, cassette]);
  assertOneLineRefusal(
    result,
    /unknown\.faults\.json: fault #2 "boom": unknown fault kind "explode" \(known: delay, timeout/,
  );
});

test("replay --faults: an entry that targets nothing → exit 2, the file, the entry and the problem", async () => {
  const faults = writeFile(dir, "nothing.faults.json", [{
    match: { nth: 2 },
    fault: { kind: "timeout" },
  }]);
  const result = await runWithOpenStdin([...CLI, "replay", "--faults", faults, cassette]);
  assertOneLineRefusal(result, /nothing\.faults\.json: fault #1: targets nothing/);
});

test("record --pack: a TOML pack with an invalid regex → exit 2, the file, the rule and the problem", async () => {
  const pack = writeFile(
    dir,
    "bad.pack.toml",
    'name = "acme"\n\n[[rules]]\nlabel = "customer-id"\nregex = \'ACME-(\\d{6}\'\n',
  );
  const output = path.join(dir, "never.cassette.jsonl");
  const result = await runWithOpenStdin([
    ...CLI,
    "record",
    "--pack",
    pack,
    "-o",
    output,
    "--",
    ...EVERYTHING,
  ]);
  assertOneLineRefusal(result, /bad\.pack\.toml.*customer-id.*regex/i);
});
