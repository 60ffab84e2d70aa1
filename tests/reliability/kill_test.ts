/**
 * Nothing recorded is lost: the stdio recorder killed with SIGKILL at random
 * points of a busy session leaves a cassette in which every frame forwarded
 * before the kill is present, in order, and readable; a torn tail is
 * reported by the reader and by `lint`.
 *
 * Every recorder of RECORDER_RUNTIMES (Deno on threads, Deno on its main
 * thread, Bun) is killed at the points of the fixed seeds, the same in every
 * run, and of this run's random seed (printed; MCP_CASSETTE_SEED repeats
 * it). One more test kills each the moment a frame has reached the client
 * in full, which fails every run if a recorder forwards before it writes.
 *
 * Default: 10 kill points per seed; MCP_CASSETTE_LONG=1: 40 for the random seed.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, truncateSync, writeFileSync } from "node:fs";
import path from "node:path";
import { loadCassette } from "../../src/cassette/reader.ts";
import { CLI, run, tempDir } from "../helpers.ts";
import {
  call,
  figure,
  FIXED_SEEDS,
  FIXTURE,
  initialize,
  killAtRandomPoints,
  LineProcess,
  LONG,
  RECORDER_RUNTIMES,
  SEED,
} from "./_helpers.ts";
import type { RecorderRuntime } from "./_helpers.ts";

const KILLS = 10;
const RANDOM_KILLS = LONG ? 40 : KILLS;
/** Requests kept in flight: the session is busy in both directions at every kill point. */
const IN_FLIGHT = 16;

console.log(`kill tests: random seed ${SEED} (MCP_CASSETTE_SEED=${SEED} repeats it)`);

interface KillOutcome {
  received: number;
  recorded: number;
  torn: boolean;
}

async function killOnce(
  runtime: RecorderRuntime,
  cassette: string,
  delayMs: number,
): Promise<KillOutcome> {
  const recorder = new LineProcess(
    [...runtime.cli, "record", "-o", cassette, "--", ...FIXTURE, "serve"],
    { env: runtime.env },
  );
  recorder.send(initialize());
  await recorder.answer(1);
  recorder.send({ jsonrpc: "2.0", method: "notifications/initialized" });
  let next = 2;
  let answered = 0;
  const sent = new Map<number, unknown>();
  const fire = () => {
    const message = call(next, "echo", { n: next, pad: "p".repeat(next % 200) });
    sent.set(next++, message);
    recorder.send(message);
  };
  for (let i = 0; i < IN_FLIGHT; i++) fire();
  // Each answer sends the next request, until the kill.
  let killed = false;
  const keepBusy = setInterval(() => {
    if (killed) return;
    const now = recorder.messages().filter((message) =>
      message.id !== undefined && message.method === undefined
    ).length - 1;
    for (; answered < now; answered++) {
      fire();
    }
  }, 1);
  await new Promise((resolve) => setTimeout(resolve, delayMs));
  killed = true;
  recorder.child.kill("SIGKILL");
  await recorder.closed;
  clearInterval(keepBusy);

  const loaded = await loadCassette(cassette);
  const forwarded = recorder.lines.filter((line) => line.trim() !== "");
  const s2c = loaded.entries.filter((entry) => entry.type === "message" && entry.dir === "s2c")
    .map((entry) => JSON.stringify((entry as { msg: unknown }).msg));
  // Every forwarded frame, in order, at the start of what the cassette holds.
  assert.ok(
    s2c.length >= forwarded.length,
    `cassette has ${s2c.length} server frames, the client got ${forwarded.length}`,
  );
  forwarded.forEach((line, index) =>
    assert.equal(s2c[index], JSON.stringify(JSON.parse(line)), `server frame ${index}`)
  );
  // Every request the server answered is in the cassette as the client sent it.
  const c2s = new Map(
    loaded.entries.filter((entry) => entry.type === "message" && entry.dir === "c2s")
      .map((
        entry,
      ) => [
        (entry as { msg: { id?: unknown } }).msg.id,
        JSON.stringify((entry as { msg: unknown }).msg),
      ]),
  );
  for (const line of forwarded) {
    const id = JSON.parse(line).id;
    if (typeof id === "number" && id > 1) {
      assert.equal(c2s.get(id), JSON.stringify(sent.get(id)), `request ${id}`);
    }
  }
  const text = readFileSync(cassette, "utf8");
  assert.equal(
    loaded.torn !== undefined,
    !text.endsWith("\n"),
    "the reader reports a torn tail exactly when there is one",
  );
  return {
    received: forwarded.length,
    recorded: loaded.entries.length,
    torn: loaded.torn !== undefined,
  };
}

for (const runtime of RECORDER_RUNTIMES) {
  for (const seed of [...FIXED_SEEDS, SEED]) {
    const random = seed === SEED;
    const kills = random ? RANDOM_KILLS : KILLS;
    test(
      `SIGKILL at ${kills} points of a busy stdio session (${
        random ? "this run's random" : "fixed"
      } seed ${seed}) loses no forwarded frame: ${runtime.name}`,
      async () => {
        const { outcomes, torn } = await killAtRandomPoints(
          kills,
          "mcp-cassette-kill-",
          (cassette, delayMs) => killOnce(runtime, cassette, delayMs),
          seed,
        );
        const received = outcomes.map((outcome) => outcome.received);
        figure("stdio-sigkill", {
          recorder: runtime.name,
          kills,
          seed,
          framesForwardedPerKill: { min: Math.min(...received), max: Math.max(...received) },
          framesForwardedTotal: received.reduce((a, b) => a + b, 0),
          lost: 0,
          tornTails: torn.length,
        });
      },
    );
  }

  test(`SIGKILL the moment a frame reached the client in full: it is in the cassette: ${runtime.name}`, async () => {
    // The fixture's late_end answer is 16 MB whose last 64 bytes come after
    // a pause, so the chunk completing it is forwarded at once and the kill
    // follows within a millisecond or so, while serialising and writing
    // 16 MB takes tens: a recorder that forwards before it writes loses the
    // frame every time, one that writes first never does.
    const dir = tempDir("mcp-cassette-kill-on-arrival-");
    for (let attempt = 0; attempt < 3; attempt++) {
      const cassette = path.join(dir, `arrival-${attempt}.cassette.jsonl`);
      const recorder = new LineProcess(
        [...runtime.cli, "record", "-o", cassette, "--", ...FIXTURE, "serve"],
        { env: runtime.env },
      );
      recorder.send(initialize());
      await recorder.answer(1);
      recorder.send(call(2, "late_end"));
      await recorder.until(() => recorder.lines.length >= 2, "the 16 MB answer");
      recorder.child.kill("SIGKILL");
      await recorder.closed;
      const loaded = await loadCassette(cassette);
      const answers = loaded.entries.filter((entry) =>
        entry.type === "message" && entry.dir === "s2c" &&
        (entry.msg as { id?: unknown }).id === 2
      );
      assert.equal(
        answers.length,
        1,
        `attempt ${attempt}: the client had the whole answer to request 2, the cassette ${
          answers.length === 0 ? "does not" : "has it more than once"
        } (${loaded.entries.length} entries)`,
      );
    }
  });
}

test("a tail torn mid-line is read up to it and reported by lint as MCL008", async () => {
  const dir = tempDir("mcp-cassette-torn-");
  const cassette = path.join(dir, "torn.cassette.jsonl");
  await killOnce(RECORDER_RUNTIMES[0], cassette, 50);
  // The kill may itself have torn the last line; end the file at the last
  // whole line first, so the 7 bytes cut below always tear a whole one.
  const bytes = readFileSync(cassette);
  const size = bytes.lastIndexOf(0x0a) + 1;
  truncateSync(cassette, size);
  const whole = await loadCassette(cassette);
  assert.equal(whole.torn, undefined, "the file ends at a whole line");
  truncateSync(cassette, size - 7);
  const cut = await loadCassette(cassette);
  assert.equal(cut.entries.length, whole.entries.length - 1);
  assert.ok(cut.torn, "the cut line is reported as torn");
  const lint = await run([...CLI, "lint", cassette]);
  assert.match(lint.stdout + lint.stderr, /MCL008/);
  // A bad line anywhere but the end is an error naming the line, not a silent skip.
  writeFileSync(
    cassette,
    readFileSync(cassette, "utf8") + "\n" + '{"type":"raw","t":1,"dir":"s2c","text":"x"}\n',
  );
  await assert.rejects(loadCassette(cassette), new RegExp(`:${cut.torn!.line}`));
});
