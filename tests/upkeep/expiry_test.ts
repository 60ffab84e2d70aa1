/**
 * Cassette expiry (`--max-age`, `--on-expired`): a cassette recorded from a
 * real server of ours (no SDK, a fresh nonce in every answer) through the
 * official SDK client, then aged by rewriting its header's `created`, and
 * replayed, refused, re-recorded and linted.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { ExitCode, ExpiredError, startCassette } from "../../mod.ts";
import { Client, StdioClientTransport } from "../sdk.ts";
import { CLI, NODE, ROOT, run, tempDir } from "../helpers.ts";

const SERVER = [NODE, path.join(ROOT, "tests/fixtures/upkeep/nonce_server.mjs")];
const DAY = 86_400_000;

/** Connects the SDK client to what `startCassette` returned and calls `stamp` once. */
async function stampThrough(server: { command: string; args: string[] }): Promise<string> {
  const client = new Client({ name: "expiry-test", version: "1.0.0" });
  await client.connect(new StdioClientTransport({ command: server.command, args: server.args }));
  try {
    const result = await client.callTool({ name: "stamp", arguments: { label: "a" } });
    return (result.content as { text: string }[])[0].text;
  } finally {
    await client.close();
  }
}

/** Records a cassette of one `stamp` call, then moves its recorded date `days` into the past. */
async function agedCassette(days: number): Promise<{ cassette: string; text: string }> {
  const cassette = path.join(tempDir(), "stamp.cassette.jsonl");
  const server = await startCassette({ path: cassette, mode: "all", server: SERVER });
  const text = await stampThrough(server);
  await server.finish();
  const lines = readFileSync(cassette, "utf8").split("\n");
  const header = JSON.parse(lines[0]);
  header.created = new Date(Date.now() - days * DAY).toISOString();
  lines[0] = JSON.stringify(header);
  writeFileSync(cassette, lines.join("\n"));
  return { cassette, text };
}

test("replay --max-age: an expired cassette warns by default and fails (exit 8) with --on-expired fail", async () => {
  const { cassette } = await agedCassette(40);
  const warned = await run([...CLI, "replay", cassette, "--max-age", "30d"]);
  assert.equal(warned.code, 0, warned.stderr);
  assert.match(warned.stderr, /is 40d old .*older than its max age 30d/);
  const failed = await run([
    ...CLI,
    "replay",
    cassette,
    "--max-age",
    "30d",
    "--on-expired",
    "fail",
  ]);
  assert.equal(failed.code, ExitCode.Expired, failed.stderr);
  assert.equal(failed.stderr.trim().split("\n").length, 1, failed.stderr);
  assert.match(failed.stderr, new RegExp(`${path.basename(cassette)} is 40d old`));
  const young = await run([...CLI, "replay", cassette, "--max-age", "60d", "--on-expired", "fail"]);
  assert.equal(young.code, 0, young.stderr);
  assert.doesNotMatch(young.stderr, /older than/);
});

test("[replay] max-age in mcp-cassette.toml expires a cassette like the flag", async () => {
  const { cassette } = await agedCassette(3);
  const folder = path.dirname(cassette);
  writeFileSync(
    path.join(folder, "mcp-cassette.toml"),
    '[replay]\nmax-age = "2d"\non-expired = "fail"\n',
  );
  const refused = await run([...CLI, "replay", cassette], { cwd: folder });
  assert.equal(refused.code, ExitCode.Expired, refused.stderr);
  assert.match(refused.stderr, /is 3d old .*older than its max age 2d/);
});

test("a duration that does not parse is one line, exit 2, and nothing is served", async () => {
  const { cassette } = await agedCassette(1);
  const before = readFileSync(cassette, "utf8");
  for (const bad of ["30", "thirty days", "0d", "5y"]) {
    const result = await run([...CLI, "replay", cassette, "--max-age", bad]);
    assert.equal(result.code, 2, result.stderr);
    assert.equal(result.stderr.trim().split("\n").length, 1, result.stderr);
    assert.match(result.stderr, /--max-age must be/);
    assert.equal(result.stdout, "");
  }
  const rerecord = await run([...CLI, "replay", cassette, "--max-age", "1d", "--on-expired", "x"]);
  assert.equal(rerecord.code, 2, rerecord.stderr);
  const lint = await run([...CLI, "lint", cassette, "--max-age", "soon"]);
  assert.equal(lint.code, 2, lint.stderr);
  assert.equal(readFileSync(cassette, "utf8"), before);
});

test("the helpers: fail throws ExpiredError (exit code 8); warn replays the recording", async () => {
  const { cassette, text } = await agedCassette(10);
  await assert.rejects(
    startCassette({ path: cassette, server: SERVER, maxAge: "7d", onExpired: "fail" }),
    (error: unknown) =>
      error instanceof ExpiredError && error.exitCode === 8 &&
      /10d old .*older than its max age 7d/.test(error.message),
  );
  const server = await startCassette({ path: cassette, server: SERVER, maxAge: "7d" });
  assert.equal(server.action, "replay");
  assert.equal(await stampThrough(server), text);
  await server.finish();
});

test("the helpers' rerecord in mode once records anew, and keeps the old file when recording fails", async () => {
  const { cassette, text } = await agedCassette(10);
  const folder = path.dirname(cassette);
  // A server that dies at once: the re-recording cannot be whole, so the old cassette stays.
  const broken = [NODE, "-e", "process.exit(1)"];
  const before = readFileSync(cassette, "utf8");
  const failing = await startCassette({
    path: cassette,
    server: broken,
    maxAge: "7d",
    onExpired: "rerecord",
  });
  assert.equal(failing.action, "record");
  await assert.rejects(stampThrough(failing));
  await failing.finish().catch(() => {});
  assert.equal(readFileSync(cassette, "utf8"), before);
  assert.deepEqual(readdirSync(folder).sort(), ["stamp.cassette.jsonl"]);

  const server = await startCassette({
    path: cassette,
    server: SERVER,
    maxAge: "7d",
    onExpired: "rerecord",
  });
  assert.equal(server.action, "record");
  const fresh = await stampThrough(server);
  await server.finish();
  assert.notEqual(fresh, text, "a live answer carries a new nonce");
  const header = JSON.parse(readFileSync(cassette, "utf8").split("\n")[0]);
  assert.ok(Date.now() - Date.parse(header.created) < DAY, header.created);
  assert.deepEqual(readdirSync(folder).sort(), ["stamp.cassette.jsonl"]);
  // Now young again: replayed, the same answer as just recorded.
  const again = await startCassette({ path: cassette, maxAge: "7d", onExpired: "rerecord" });
  assert.equal(again.action, "replay");
  assert.equal(await stampThrough(again), fresh);
  await again.finish();
});

test("lint --max-age reports an expired cassette as MCL010 (exit 4)", async () => {
  const { cassette } = await agedCassette(40);
  const expired = await run([...CLI, "lint", cassette, "--max-age", "30d"]);
  assert.equal(expired.code, ExitCode.Findings, expired.stdout + expired.stderr);
  assert.match(expired.stdout, /MCL010/);
  assert.match(expired.stdout, /40d old/);
  const young = await run([...CLI, "lint", cassette, "--max-age", "60d"]);
  assert.doesNotMatch(young.stdout, /MCL010/);
});
