/**
 * One codebase, four ways to run it: `deno run -A cli.ts`, `bun cli.ts`,
 * `node npm/cli.js` (the npm build) and the compiled binary. The same SDK
 * client records the reference server through each, and replays through the
 * next one in the ring, so every runtime also reads a cassette another
 * runtime wrote. Every session must give the same results. Each also runs
 * the demo, whose servers are this CLI restarted by `runtime.selfCommand()`.
 */
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { rmSync } from "node:fs";
import path from "node:path";
import { ROOT, run, tempDir } from "../helpers.ts";
import {
  BUN_BIN,
  DENO_BIN,
  denoScript,
  hostBinary,
  NODE_BIN,
  overridesInName,
  recordWith,
  replayWith,
} from "./_runtimes.ts";
import type { SessionResults } from "./_runtimes.ts";

const NAME = "record under each runtime, replay under the next: identical results everywhere" +
  overridesInName("MCP_CASSETTE_BINARY");
const work = tempDir("mcp-cassette-matrix-");
after(() => rmSync(work, { recursive: true, force: true }));

test(NAME, async () => {
  await denoScript("build_npm.ts", []);
  const runtimes: [string, string[]][] = [
    ["deno", [DENO_BIN, "run", "-A", "--no-check", path.join(ROOT, "cli.ts")]],
    ["bun", [BUN_BIN, path.join(ROOT, "cli.ts")]],
    ["node", [NODE_BIN, path.join(ROOT, "npm", "cli.js")]],
    ["binary", [await hostBinary(work)]],
  ];

  const recorded = new Map<string, SessionResults>();
  for (const [name, cli] of runtimes) {
    recorded.set(name, await recordWith(cli, path.join(work, `${name}.cassette.jsonl`)));
  }
  const reference = recorded.get("deno")!;
  for (const [name, results] of recorded) {
    assert.deepEqual(results, reference, `recording through ${name} differs`);
  }

  for (const [index, [name, cli]] of runtimes.entries()) {
    const writer = runtimes[(index + 1) % runtimes.length][0];
    const replayed = await replayWith(cli, path.join(work, `${writer}.cassette.jsonl`));
    assert.deepEqual(replayed, reference, `${name} replaying the ${writer} cassette differs`);
  }

  // The demo starts its servers with runtime.selfCommand(): each way of running must restart itself.
  for (const [name, cli] of runtimes) {
    const demo = await run([...cli, "demo"], { cwd: work });
    assert.equal(demo.code, 0, `demo under ${name}: ${demo.stdout}${demo.stderr}`);
    assert.match(demo.stdout, /demo OK/);
  }
});
