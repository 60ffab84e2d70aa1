/**
 * The in-process replay transport against the official SDK v1 client: the
 * same results as the stdio replay of the same cassette, with no subprocess.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import { Client } from "../sdk.ts";
import { ReplayMissError, ReplayTransport } from "../../mod.ts";
import { CLI, DENO, EVERYTHING, ROOT, run, tempDir } from "../helpers.ts";
import { runSteps } from "./fixtures/steps.ts";

const STEPS = [DENO, "run", "-A", "--no-check", path.join(ROOT, "tests/api/fixtures/steps_cli.ts")];

async function recordCassette(): Promise<{ cassette: string; live: Record<string, unknown> }> {
  const cassette = path.join(tempDir(), "everything.cassette.jsonl");
  const live = await run([...STEPS, "--", ...CLI, "record", "-o", cassette, "--", ...EVERYTHING]);
  assert.equal(live.code, 0, live.stderr);
  return { cassette, live: JSON.parse(live.stdout) };
}

test("ReplayTransport gives the SDK client the same results as the stdio replay of the same cassette", async () => {
  const { cassette, live } = await recordCassette();
  const stdio = await run([...STEPS, "--", ...CLI, "replay", cassette]);
  assert.equal(stdio.code, 0, stdio.stderr);
  const transport = await ReplayTransport.open(cassette);
  const inProcess = await runSteps(transport);
  assert.deepEqual(inProcess, JSON.parse(stdio.stdout));
  assert.deepEqual(inProcess, live);
  assert.equal(
    (inProcess.sum as { content: { text: string }[] }).content[0].text,
    "The sum of 2 and 40 is 42.",
  );
  const report = await transport.finish({ failOnUnplayed: true });
  assert.deepEqual(report.misses, []);
});

test("ReplayTransport.finish raises ReplayMissError naming the request it could not answer", async () => {
  const { cassette } = await recordCassette();
  const transport = await ReplayTransport.open(cassette);
  const client = new Client({ name: "api-test", version: "1.0.0" });
  await client.connect(transport);
  await client.callTool({ name: "get-sum", arguments: { a: 2, b: 40 } });
  // The only get-sum answer is used up: another argument is now a true miss.
  const answer = await client.callTool({ name: "get-sum", arguments: { a: 2, b: 41 } }).catch((
    error,
  ) => error);
  assert.equal((answer as { code: number }).code, -32001);
  await client.close();
  const error = await transport.finish().catch((caught) => caught);
  assert.ok(error instanceof ReplayMissError, String(error));
  assert.equal(error.exitCode, 3);
  assert.equal(error.misses.length, 1);
  assert.match(error.message, /recorded 40, got 41/);
});

test("ReplayTransport reports recorded requests never asked for only when asked to", async () => {
  const { cassette } = await recordCassette();
  const transport = await ReplayTransport.open(cassette);
  const client = new Client({ name: "api-test", version: "1.0.0" });
  await client.connect(transport);
  await client.ping();
  await client.close();
  const relaxed = await transport.finish();
  assert.ok(relaxed.unplayed.includes("tools/call get-sum"), relaxed.unplayed.join(", "));
  const strict = await transport.finish({ failOnUnplayed: true }).catch((caught) => caught);
  assert.ok(strict instanceof ReplayMissError);
  assert.match(strict.message, /unplayed: .*tools\/call get-sum/);
});
