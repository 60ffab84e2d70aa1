/**
 * Colour: off when output is not a terminal, on with FORCE_COLOR=1, and
 * NO_COLOR beats both FORCE_COLOR and verify's --color. Driven through the
 * real CLI on the example cassettes and the reference server.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import { CLI, EVERYTHING, ROOT, run } from "../helpers.ts";

const EXAMPLES = path.join(ROOT, "examples/cassettes");
const RED = "\x1b[31m";
const GREEN = "\x1b[32m";

test("lint and diff: plain on a pipe, coloured with FORCE_COLOR=1, plain again when NO_COLOR is set too", async () => {
  const poisoned = path.join(EXAMPLES, "weather-poisoned.cassette.jsonl");
  const plain = await run([...CLI, "lint", poisoned], { env: { NO_COLOR: undefined } });
  assert.equal(plain.code, 4);
  assert.ok(!plain.stdout.includes("\x1b["), plain.stdout);
  const forced = await run([...CLI, "lint", poisoned], {
    env: { NO_COLOR: undefined, FORCE_COLOR: "1" },
  });
  assert.equal(forced.code, 4);
  assert.ok(forced.stdout.includes(`${RED}${poisoned}:7: error MCL101`), forced.stdout);
  const vetoed = await run([...CLI, "lint", poisoned], {
    env: { NO_COLOR: "1", FORCE_COLOR: "1" },
  });
  assert.ok(!vetoed.stdout.includes("\x1b["), vetoed.stdout);
  assert.equal(vetoed.stdout, plain.stdout);

  const diffArgs = [
    "diff",
    path.join(EXAMPLES, "weather.cassette.jsonl"),
    path.join(EXAMPLES, "weather-v2.cassette.jsonl"),
  ];
  const diff = await run([...CLI, ...diffArgs], { env: { NO_COLOR: undefined, FORCE_COLOR: "1" } });
  assert.equal(diff.code, 5);
  assert.ok(diff.stdout.includes("\x1b["), diff.stdout);
  const diffPlain = await run([...CLI, ...diffArgs], { env: { NO_COLOR: "1", FORCE_COLOR: "1" } });
  assert.ok(!diffPlain.stdout.includes("\x1b["), diffPlain.stdout);
});

test("check: the result line is green with FORCE_COLOR=1; FORCE_COLOR=0 and NO_COLOR keep it plain", async () => {
  const forced = await run([...CLI, "check", "--", ...EVERYTHING], {
    env: { NO_COLOR: undefined, FORCE_COLOR: "1" },
  });
  assert.equal(forced.code, 0, forced.stderr);
  assert.ok(forced.stdout.includes(`result: ${GREEN}PASS`), forced.stdout);
  const off = await run([...CLI, "check", "--", ...EVERYTHING], {
    env: { NO_COLOR: undefined, FORCE_COLOR: "0" },
  });
  assert.ok(off.stdout.includes("result: PASS\n") && !off.stdout.includes("\x1b["), off.stdout);
  const vetoed = await run([...CLI, "check", "--", ...EVERYTHING], {
    env: { NO_COLOR: "1", FORCE_COLOR: "1" },
  });
  assert.ok(!vetoed.stdout.includes("\x1b["), vetoed.stdout);
});

test("replay: a miss line is red on stderr with FORCE_COLOR=1, plain with NO_COLOR", async () => {
  const cassette = path.join(EXAMPLES, "weather.cassette.jsonl");
  const input = [
    {
      jsonrpc: "2.0",
      id: 0,
      method: "initialize",
      params: {
        protocolVersion: "2025-11-25",
        capabilities: {},
        clientInfo: { name: "example-client", version: "1.0.0" },
      },
    },
    { jsonrpc: "2.0", method: "notifications/initialized" },
    { jsonrpc: "2.0", id: 1, method: "resources/read", params: { uri: "file:///nowhere" } },
  ].map((message) => JSON.stringify(message)).join("\n") + "\n";
  const forced = await run([...CLI, "replay", cassette], {
    input,
    env: { NO_COLOR: undefined, FORCE_COLOR: "1" },
  });
  assert.equal(forced.code, 3, forced.stderr);
  assert.match(forced.stderr, new RegExp(`mcp-cassette: \\x1b\\[31mmiss: `));
  const plain = await run([...CLI, "replay", cassette], {
    input,
    env: { NO_COLOR: "1", FORCE_COLOR: "1" },
  });
  assert.equal(plain.code, 3);
  assert.match(plain.stderr, /mcp-cassette: miss: /);
  assert.ok(!plain.stderr.includes("\x1b["), plain.stderr);
});
