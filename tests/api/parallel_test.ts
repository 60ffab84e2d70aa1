/**
 * Parallel safety and record modes with real processes: eight test
 * processes on one missing cassette, `new_episodes` against the live
 * reference server.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import { loadCassette } from "../../mod.ts";
import { CLI, DENO, EVERYTHING, ROOT, run, tempDir } from "../helpers.ts";
import type { CassetteResult } from "../../mod.ts";

const WORKER = [DENO, "run", "-A", "--no-check", path.join(ROOT, "tests/api/fixtures/worker.ts")];

interface WorkerOutput {
  results?: Record<string, unknown>;
  result?: CassetteResult;
  error?: { name: string; message: string };
}

async function worker(
  args: string[],
  env: Record<string, string> = {},
  server = EVERYTHING,
): Promise<WorkerOutput> {
  const done = await run([...WORKER, ...args, "--", ...server], { env, timeoutMs: 120_000 });
  assert.equal(done.code, 0, done.stderr);
  return JSON.parse(done.stdout);
}

test("eight test processes on one missing cassette: one records, seven replay, the cassette is whole", async () => {
  const cassette = path.join(tempDir(), "shared.cassette.jsonl");
  const outputs = await Promise.all(
    Array.from({ length: 8 }, () => worker(["--cassette", cassette])),
  );
  for (const output of outputs) assert.equal(output.error, undefined, JSON.stringify(output.error));
  const actions = outputs.flatMap((output) =>
    output.result!.launches.map((launch) => launch.action)
  ).sort();
  assert.deepEqual(actions, [
    "record",
    "replay",
    "replay",
    "replay",
    "replay",
    "replay",
    "replay",
    "replay",
  ]);
  for (const output of outputs) assert.deepEqual(output.results, outputs[0].results);
  const loaded = await loadCassette(cassette);
  assert.equal(loaded.torn, undefined);
  const sessions = loaded.entries.filter((entry) =>
    entry.type === "session" && entry.event === "start"
  );
  assert.equal(sessions.length, 1);
  const asked = loaded.entries.filter((entry) => entry.type === "message" && entry.dir === "c2s");
  // initialize, initialized, 8 requests of the steps and ping: every frame of the one recording.
  const requests = asked.filter((entry) =>
    entry.type === "message" && (entry.msg as { id?: unknown }).id !== undefined
  );
  const answers = loaded.entries.filter((entry) =>
    entry.type === "message" && entry.dir === "s2c" &&
    (entry.msg as { id?: unknown }).id !== undefined
  );
  assert.equal(requests.length, 10);
  assert.equal(answers.length, requests.length);
  const leftovers = (await import("node:fs")).readdirSync(path.dirname(cassette));
  assert.deepEqual(leftovers, ["shared.cassette.jsonl"]);
});

test("new_episodes: one unrecorded request reaches the live server once and is appended, marked", async () => {
  const cassette = path.join(tempDir(), "episodes.cassette.jsonl");
  const first = await worker(["--cassette", cassette]);
  assert.equal(first.result?.launches[0].action, "record");
  const before = (await loadCassette(cassette)).entries.length;

  // The live server sits behind a recorder of its own, which shows what it was sent.
  const seenLive = path.join(path.dirname(cassette), "live.cassette.jsonl");
  const liveServer = [
    ...CLI,
    "record",
    "--append-window-ms",
    "0",
    "-o",
    seenLive,
    "--",
    ...EVERYTHING,
  ];
  const second = await worker(
    ["--cassette", cassette, "--mode", "new_episodes", "--extra"],
    {},
    liveServer,
  );
  assert.equal(second.error, undefined, JSON.stringify(second.error));
  assert.equal(second.result?.action, "replay-append");
  assert.equal(second.result?.appended, 2);
  assert.deepEqual(second.result?.misses, []);
  const fresh = second.results!.fresh as { structuredContent: { temperature: number } };
  assert.equal(typeof fresh.structuredContent.temperature, "number");

  const after = await loadCassette(cassette);
  const appended = after.entries.slice(before);
  assert.ok(appended.length >= 2);
  assert.ok(appended.every((entry) => entry.appended === true));
  const forwarded = appended.filter((entry) => entry.type === "message" && entry.dir === "c2s");
  assert.equal(forwarded.length, 2);
  // The appended exchanges are scrubbed by the cassette's own rules, both ways.
  const written = (await import("node:fs")).readFileSync(cassette, "utf8");
  assert.doesNotMatch(written, /sk-ant-api03-a{24}/);
  assert.match(JSON.stringify(forwarded[1]), /key \[REDACTED:anthropic-key:[0-9a-f]{16}\]/);
  assert.deepEqual((forwarded[0] as unknown as { msg: { params: unknown } }).msg.params, {
    name: "get-structured-content",
    arguments: { location: "New York" },
  });
  // It was opened with the client's own handshake (which matched the cassette) before the miss.
  const liveMethods = (await loadCassette(seenLive)).entries
    .filter((entry) => entry.type === "message" && entry.dir === "c2s")
    .map((entry) => (entry as unknown as { msg: { method?: string } }).msg.method);
  assert.deepEqual(liveMethods, [
    "initialize",
    "notifications/initialized",
    "tools/call",
    "tools/call",
  ]);

  // CI replays it with recording forbidden: the appended exchange now answers.
  const replayed = await worker(["--cassette", cassette, "--extra"], { MCP_CASSETTE_MODE: "none" });
  assert.equal(replayed.error, undefined, JSON.stringify(replayed.error));
  // Including the call with the live secret, which matches its scrubbed recording.
  assert.deepEqual(replayed.results, second.results);
  assert.equal((await loadCassette(cassette)).entries.length, after.entries.length);
});
