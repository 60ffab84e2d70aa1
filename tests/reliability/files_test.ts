/**
 * Crash safety of files: re-recording over a cassette writes aside and
 * renames, so a recorder killed with SIGKILL mid-way leaves the old cassette
 * byte-identical; SIGINT and SIGTERM end the recording cleanly, leaving
 * neither a `.partial` nor a `.claim` file; a server that cannot start
 * leaves the old cassette and no debris.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { loadCassette } from "../../src/cassette/reader.ts";
import { CLI, run, tempDir } from "../helpers.ts";
import { call, figure, FIXTURE, initialize, LineProcess, LONG, rng, SEED } from "./_helpers.ts";

async function recordOnce(cassette: string, requests: number): Promise<void> {
  const live = new LineProcess([
    ...CLI,
    "record",
    "--append-window-ms",
    "0",
    "-o",
    cassette,
    "--",
    ...FIXTURE,
    "serve",
  ]);
  live.send(initialize());
  await live.answer(1);
  for (let id = 2; id < 2 + requests; id++) live.send(call(id, "echo", { id }));
  await live.answer(1 + requests);
  assert.equal((await live.finish()).code, 0, live.stderr);
}

/**
 * Starts a re-recording over `cassette` and has it busy answering. A relaunch
 * within the append window (default 10 s) appends a session instead of
 * replacing the file; `--append-window-ms 0` asks for the replacement.
 */
async function busyRecorder(cassette: string, window = "0"): Promise<LineProcess> {
  const live = new LineProcess([
    ...CLI,
    "record",
    "--append-window-ms",
    window,
    "-o",
    cassette,
    "--",
    ...FIXTURE,
    "serve",
  ]);
  live.send(initialize());
  await live.answer(1);
  for (let id = 2; id < 50; id++) live.send(call(id, "echo", { again: id }));
  await live.answer(20);
  return live;
}

/** The side files (`<cassette>.<random>.partial`) a killed re-recording left in `dir`. */
function sideFiles(dir: string): string[] {
  return readdirSync(dir).filter((name) => /\.[0-9a-f]{16}\.partial$/.test(name));
}

test("re-recording killed with SIGKILL leaves the old cassette byte-identical", async () => {
  const dir = tempDir("mcp-cassette-files-");
  const cassette = path.join(dir, "old.cassette.jsonl");
  await recordOnce(cassette, 3);
  const before = readFileSync(cassette);
  const kills = LONG ? 20 : 5;
  const random = rng(SEED + 1);
  for (let i = 0; i < kills; i++) {
    const live = await busyRecorder(cassette);
    await new Promise((resolve) => setTimeout(resolve, Math.floor(random() * 50)));
    live.child.kill("SIGKILL");
    await live.closed;
    assert.ok(readFileSync(cassette).equals(before), `kill ${i}: the old cassette changed`);
    assert.ok(sideFiles(dir).length > 0, "the new recording was being written aside");
  }
  // Within the append window the relaunch appends in place: the old bytes stay a prefix.
  const appending = await busyRecorder(cassette, "600000");
  appending.child.kill("SIGKILL");
  await appending.closed;
  assert.ok(
    readFileSync(cassette).subarray(0, before.length).equals(before),
    "append mode: the old cassette is a prefix",
  );
  assert.ok((await loadCassette(cassette)).entries.some((entry) => entry.session === "launch-2"));
  // The next complete recording replaces the debris and the old cassette.
  for (const side of sideFiles(dir)) rmSync(path.join(dir, side));
  await recordOnce(cassette, 2);
  assert.deepEqual(sideFiles(dir), []);
  assert.equal(
    (await loadCassette(cassette)).entries.filter((entry) =>
      entry.type === "message" && entry.dir === "c2s"
    ).length,
    3,
  );
  figure("rerecord-sigkill", { kills, oldCassetteIntact: kills });
});

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  test(`${signal} ends a re-recording cleanly: new cassette complete, no .partial, no .claim`, async () => {
    const dir = tempDir("mcp-cassette-files-");
    const cassette = path.join(dir, "old.cassette.jsonl");
    await recordOnce(cassette, 1);
    const live = await busyRecorder(cassette);
    assert.ok(existsSync(`${cassette}.claim`), "the recording holds a claim while it runs");
    live.child.kill(signal);
    await live.closed;
    assert.deepEqual(sideFiles(dir), [], ".partial left behind");
    assert.ok(!existsSync(`${cassette}.claim`), ".claim left behind");
    const loaded = await loadCassette(cassette);
    assert.equal(loaded.torn, undefined);
    assert.ok(
      loaded.entries.some((entry) => entry.type === "session" && entry.event === "end"),
      "the session end is recorded",
    );
    const sent = loaded.entries.filter((entry) =>
      entry.type === "message" && entry.dir === "c2s"
    ).length;
    assert.ok(sent >= 20, `the new recording replaced the old one (${sent} requests)`);
  });
}

test("a server that cannot start leaves the old cassette and no debris (exit 7)", async () => {
  const dir = tempDir("mcp-cassette-files-");
  const cassette = path.join(dir, "old.cassette.jsonl");
  await recordOnce(cassette, 1);
  const before = readFileSync(cassette);
  const failed = await run([
    ...CLI,
    "record",
    "-o",
    cassette,
    "--",
    path.join(dir, "no-such-server"),
  ], { input: "" });
  assert.equal(failed.code, 7, failed.stderr);
  assert.ok(readFileSync(cassette).equals(before));
  assert.deepEqual(sideFiles(dir), []);
  assert.ok(!existsSync(`${cassette}.claim`));
});
