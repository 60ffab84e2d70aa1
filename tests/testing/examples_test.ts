/**
 * The runner examples pass from their committed cassettes with recording
 * forbidden, the way CI runs them, and the helpers name cassettes after tests.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { rmSync, symlinkSync } from "node:fs";
import path from "node:path";
import { cassetteFileName, cassettePathFor } from "../../src/testing/mod.ts";
import { DENO, ROOT, run, tempDir } from "../helpers.ts";
import { NODE_BIN } from "../dist/_runtimes.ts";

const BUN = path.join(ROOT, "node_modules", ".bin", "bun");
const CI = { MCP_CASSETTE_MODE: "none" };

test("cassette names come from test names", () => {
  assert.equal(
    cassetteFileName(["weather", "Forecast for Paris!"]),
    "weather--forecast-for-paris.cassette.jsonl",
  );
  assert.equal(cassetteFileName(["Crème brûlée"]), "creme-brulee.cassette.jsonl");
  assert.equal(cassettePathFor(["a b"]), path.join("tests/cassettes", "a-b.cassette.jsonl"));
  assert.equal(cassettePathFor(["a b"], { dir: "x", name: "y.jsonl" }), path.join("x", "y.jsonl"));
  assert.throws(() => cassetteFileName(["!!"]), /needs a name/);
});

test("node:test and Deno.test examples pass under deno test with MCP_CASSETTE_MODE=none", async () => {
  const result = await run([
    DENO,
    "test",
    "-A",
    "--no-check",
    "examples/runners/node/",
    "examples/runners/deno/",
  ], { env: CI });
  assert.equal(result.code, 0, result.stdout + result.stderr);
  assert.match(result.stdout, /2 passed/);
});

test("node:test and bun:test examples pass under bun test with MCP_CASSETTE_MODE=none", async () => {
  const result = await run([BUN, "test", "examples/runners/node/", "examples/runners/bun/"], {
    env: CI,
  });
  assert.equal(result.code, 0, result.stdout + result.stderr);
  assert.match(result.stderr, /2 pass/);
});

test("the vitest example passes under vitest (on Bun) with MCP_CASSETTE_MODE=none", async () => {
  // Under Node, the helpers would restart the CLI as `node cli.ts`, which Node
  // 20 cannot run; `bun --bun` runs vitest on Bun, which runs the TypeScript CLI.
  const vitest = path.join(ROOT, "node_modules", ".bin", "vitest");
  const result = await run([BUN, "--bun", vitest, "run", "--root", "examples/runners/vitest"], {
    env: CI,
  });
  assert.equal(result.code, 0, result.stdout + result.stderr);
  assert.match(result.stdout, /Tests\s+1 passed/);
});

test("the jest example passes under jest (on Node, from the npm build) with MCP_CASSETTE_MODE=none", async () => {
  // jest runs the example as plain ESM (`--experimental-vm-modules`, no transform)
  // against a fresh npm build, so the CLI the helper restarts is the build's
  // cli.js under Node. The build is our own: tests/dist builds npm/ concurrently.
  const work = tempDir("mcp-cassette-jest-");
  try {
    const build = path.join(work, "mcp-cassette");
    // Type errors are tests/dist's to report; the example needs only the emitted code.
    const built = await run([
      DENO,
      "run",
      "-A",
      "--no-check",
      "scripts/build_npm.ts",
      "--out",
      build,
      "--allow-type-errors",
    ]);
    assert.equal(built.code, 0, built.stdout + built.stderr);
    // The build imports jsonc-parser and smol-toml: let it find the repository's copies.
    symlinkSync(path.join(ROOT, "node_modules"), path.join(build, "node_modules"), "junction");
    const jest = path.join(ROOT, "node_modules", "jest", "bin", "jest.js");
    const config = path.join("examples", "runners", "jest", "jest.config.mjs");
    const result = await run([
      NODE_BIN,
      "--experimental-vm-modules",
      jest,
      "--ci",
      "--config",
      config,
      // Its cache would otherwise stay behind in the system temp folder.
      "--cacheDirectory",
      path.join(work, "jest-cache"),
    ], {
      env: { ...CI, MCP_CASSETTE_NPM_DIR: build },
      timeoutMs: 30_000,
    });
    assert.equal(result.code, 0, result.stdout + result.stderr);
    assert.match(result.stderr, /Tests:\s+1 passed/);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
});
