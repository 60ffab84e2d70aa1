/**
 * Nothing recorded is lost over HTTP: `record --url` in front of the fast
 * HTTP fixture, killed with SIGKILL at random points of a busy session (16
 * POSTs in flight, every fourth answered as an SSE stream), leaves a
 * cassette in which every exchange the client fully received is present and
 * readable: request, answer, response envelope and a complete end. Every SSE
 * event that reached the client, even on a stream the kill cut, is there
 * too. A torn tail is reported by the reader and by `lint`.
 *
 * The HTTP recorder holds entries in memory until the era is known (the
 * first request answered with a result). A kill before that leaves an empty
 * file: the last test pins that down (docs/reliability.md says so).
 *
 * The recorder runs on Deno and on Bun, each killed at the points of the
 * fixed seeds (the same every run) and of this run's random seed (printed).
 *
 * Default: 5 kill points per seed; MCP_CASSETTE_LONG=1: 40 for the random seed.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { once } from "node:events";
import { readFileSync, statSync } from "node:fs";
import path from "node:path";
import { loadCassette } from "../../src/cassette/reader.ts";
import type { Entry } from "../../src/cassette/format.ts";
import { CLI, ROOT, run, tempDir } from "../helpers.ts";
import { BUN, figure, FIXED_SEEDS, killAtRandomPoints, LONG, SEED } from "./_helpers.ts";
import { callMessage, openSession, post, startHttpFixture, startHttpRecorder } from "./_http.ts";
import type { Msg } from "./_http.ts";
import type { Background } from "../http/http_helpers.ts";

const KILLS = 5;
const RANDOM_KILLS = LONG ? 40 : KILLS;
/** The HTTP recorder on Deno and on Bun (whose HTTP serving is its own, src/runtime/). */
const RUNTIMES = [
  { name: "Deno", cli: CLI },
  { name: "Bun", cli: [BUN, path.join(ROOT, "cli.ts")] },
] as const;
/** POSTs kept in flight: the recorder is busy in both directions at every kill point. */
const IN_FLIGHT = 16;

let fixture: Background & { url: string };
before(async () => {
  fixture = await startHttpFixture();
});
after(async () => {
  await fixture.stop("SIGTERM");
});

interface KillOutcome {
  /** Exchanges whose whole response reached the client. */
  received: number;
  /** SSE events that reached the client (cut streams included). */
  events: number;
  entries: number;
  torn: boolean;
}

async function sigkill(recorder: Background): Promise<void> {
  const exited = recorder.child.exitCode === null
    ? once(recorder.child, "exit")
    : Promise.resolve();
  recorder.child.kill("SIGKILL");
  await exited;
}

async function killOnce(
  cli: readonly string[],
  cassette: string,
  delayMs: number,
): Promise<KillOutcome> {
  const recorder = await startHttpRecorder(fixture.url, cassette, cli);
  const sessionId = await openSession(recorder.url);
  let killed = false;
  let next = 1;
  const sent = new Map<number, Msg>();
  const received = new Map<number, Msg>();
  const events: Msg[] = [];
  const busy = async () => {
    while (!killed) {
      const id = next++;
      const message = callMessage(id, "echo", {
        n: id,
        pad: "p".repeat(id % 200),
        ...(id % 4 === 0 ? { sse: true } : {}),
      });
      sent.set(id, message);
      try {
        const answer = await post(recorder.url, message, {
          sessionId,
          onEvent: (event) => events.push(event),
        });
        const reply = answer.messages.find((m) => m.id === id && m.method === undefined);
        if (answer.complete && answer.status === 200 && reply) received.set(id, reply);
      } catch {
        return; // the recorder is gone
      }
    }
  };
  const loops = Array.from({ length: IN_FLIGHT }, busy);
  await new Promise((resolve) => setTimeout(resolve, delayMs));
  killed = true;
  await sigkill(recorder);
  await Promise.all(loops);

  assert.ok(
    statSync(cassette).size > 0,
    "initialize was answered, so the header and what followed are on disk",
  );
  const loaded = await loadCassette(cassette);
  const byX = new Map<number, Entry[]>();
  for (const entry of loaded.entries) {
    if (entry.x === undefined) continue;
    if (!byX.has(entry.x)) byX.set(entry.x, []);
    byX.get(entry.x)!.push(entry);
  }
  const requests = new Map<unknown, { x: number; msg: unknown }>();
  const answers = new Map<unknown, unknown>();
  const s2c = new Set<string>();
  for (const entry of loaded.entries) {
    if (entry.type !== "message") continue;
    const msg = entry.msg as Msg;
    if (entry.dir === "c2s" && msg.method !== undefined && msg.id !== undefined) {
      requests.set(msg.id, { x: entry.x!, msg });
    }
    if (entry.dir === "s2c") {
      s2c.add(JSON.stringify(msg));
      if (msg.method === undefined) answers.set(msg.id, msg);
    }
  }
  for (const [id, reply] of received) {
    const request = requests.get(id);
    assert.ok(request, `request ${id} (answered to the client) is in the cassette`);
    assert.deepEqual(request.msg, sent.get(id), `request ${id} as sent`);
    assert.deepEqual(answers.get(id), reply, `answer ${id} as the client received it`);
    const types = byX.get(request.x)!.map((entry) => entry.type);
    assert.ok(
      types.includes("http-request") && types.includes("http-response"),
      `exchange ${request.x}: ${types}`,
    );
    const end = byX.get(request.x)!.find((entry) => entry.type === "http-end") as {
      reason?: string;
    } | undefined;
    assert.equal(end?.reason, "complete", `exchange ${request.x} (request ${id}) ended complete`);
  }
  for (const event of events) {
    assert.ok(
      s2c.has(JSON.stringify(event)),
      `SSE event ${JSON.stringify(event)} is in the cassette`,
    );
  }
  const text = readFileSync(cassette, "utf8");
  assert.equal(
    loaded.torn !== undefined,
    !text.endsWith("\n"),
    "the reader reports a torn tail exactly when there is one",
  );
  return {
    received: received.size,
    events: events.length,
    entries: loaded.entries.length,
    torn: loaded.torn !== undefined,
  };
}

for (const runtime of RUNTIMES) {
  for (const seed of [...FIXED_SEEDS, SEED]) {
    const random = seed === SEED;
    const kills = random ? RANDOM_KILLS : KILLS;
    test(
      `HTTP: SIGKILL of record --url at ${kills} points of a busy session (${
        random ? "this run's random" : "fixed"
      } seed ${seed}) loses no exchange the client received: ${runtime.name}`,
      async () => {
        const { outcomes, torn } = await killAtRandomPoints(
          kills,
          "mcp-cassette-http-kill-",
          (cassette, delayMs) => killOnce(runtime.cli, cassette, delayMs),
          seed,
        );
        const received = outcomes.map((outcome) => outcome.received);
        figure("http-sigkill", {
          recorder: runtime.name,
          kills,
          seed,
          exchangesReceivedPerKill: { min: Math.min(...received), max: Math.max(...received) },
          exchangesReceivedTotal: received.reduce((a, b) => a + b, 0),
          sseEventsReceivedTotal: outcomes.reduce((a, b) => a + b.events, 0),
          entriesTotal: outcomes.reduce((a, b) => a + b.entries, 0),
          lost: 0,
          tornTails: torn.length,
        });
      },
    );
  }
}

test("HTTP: a SIGKILL before any request succeeded leaves the held frames in <cassette>.pending (the header waits for the era)", async () => {
  const cassette = path.join(tempDir("mcp-cassette-http-kill-"), "early.cassette.jsonl");
  const recorder = await startHttpRecorder(fixture.url, cassette);
  // Two exchanges the client receives in full, neither of which decides the era.
  const get = await fetch(recorder.url, { headers: { accept: "text/event-stream" } });
  assert.equal(get.status, 405);
  await get.body?.cancel();
  const refused = await post(recorder.url, callMessage(1, "no-such-tool"));
  assert.equal(refused.messages[0]?.error?.code, -32602);
  await sigkill(recorder);
  assert.equal(statSync(cassette).size, 0, "no header yet: the era was never decided");
  const held = readFileSync(`${cassette}.pending`, "utf8").trim().split("\n").map((line) =>
    JSON.parse(line)
  );
  assert.deepEqual(
    held.filter((entry) => entry.type === "http-response").map((entry) => entry.status),
    [405, 200],
    "both exchanges the client received are on disk",
  );
  assert.ok(held.some((entry) => entry.type === "message" && entry.msg.error?.code === -32602));
  const replay = await run([...CLI, "replay", cassette]);
  assert.equal(replay.code, 2);
  assert.match(replay.stderr, /the frames it held are in .*early\.cassette\.jsonl\.pending/);
});
