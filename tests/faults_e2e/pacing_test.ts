/**
 * Replay pacing, end to end over stdio: the SDK client records one
 * `trigger-long-running-operation` call (2 s in 2 steps, with progress) from
 * server-everything, then times that call against replays with different
 * pacing flags. The recorded gaps come from the cassette itself.
 *
 * The assertions are built not to flake on a busy machine: a paced wait can
 * never end early, so the lower bounds are hard floors (less a few ms of
 * timer slack); the upper bounds compare runs with one another (ratios and
 * order), never with a fixed number of milliseconds, and their messages
 * give the measured figures.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { tempDir } from "../helpers.ts";
import type { Call, ClientRun } from "./_shared.ts";
import { recordCommand, replayCommand, runClient } from "./_shared.ts";

const dir = tempDir("mcp-cassette-pacing-");
const cassette = path.join(dir, "long.cassette.jsonl");
/** Timers may fire a little early (clock granularity); a floor gives this much. */
const TIMER_SLACK_MS = 15;
const CAP_MS = 100;

const CALLS: Call[] = [{
  label: "long",
  op: "tools/call",
  name: "trigger-long-running-operation",
  arguments: { duration: 2, steps: 2 },
  progress: true,
}];

/** The recorded gaps of the long call: request → each progress notification → response. */
function recordedGaps(file: string): number[] {
  const entries = readFileSync(file, "utf8").trim().split("\n").map((line) => JSON.parse(line));
  const request = entries.find((entry) =>
    entry.dir === "c2s" && entry.msg?.method === "tools/call"
  );
  assert.ok(request, "the cassette holds the tools/call");
  const times = [request.t];
  for (const entry of entries) {
    if (entry.dir !== "s2c" || entry.t < request.t) continue;
    if (entry.msg?.method === "notifications/progress") times.push(entry.t);
    else if (entry.msg?.id === request.msg.id && !entry.msg.method) {
      times.push(entry.t);
      break;
    }
  }
  assert.equal(times.length, 4, "request, two progress notifications, response");
  return times.slice(1).map((t, i) => t - times[i]);
}

async function timed(flags: string[]): Promise<{ ms: number; run: ClientRun }> {
  const run = await runClient(CALLS, replayCommand(cassette, flags), { timeoutMs: 20_000 });
  const call = run.byLabel.get("long")!;
  assert.equal(call.outcome, "ok", JSON.stringify(call));
  assert.equal(call.text, "Long running operation completed. Duration: 2 seconds, Steps: 2.");
  assert.equal(call.progress, 2, "both recorded progress notifications arrive");
  return { ms: call.elapsedMs, run };
}

test("recorded pacing: --pace-scale 0.5 halves the recorded gaps, --pace-cap-ms caps each, instant waits for none", async () => {
  const live = await runClient(CALLS, recordCommand(cassette), { timeoutMs: 20_000 });
  assert.equal(live.byLabel.get("long")?.outcome, "ok");
  const gaps = recordedGaps(cassette);
  const total = gaps.reduce((sum, gap) => sum + gap, 0);
  assert.ok(total >= 1900, `the recording took its 2 s (${total} ms)`);

  const half = await timed(["--pace", "recorded", "--pace-scale", "0.5"]);
  const capped = await timed(["--pace-cap-ms", String(CAP_MS)]); // a cap alone implies --pace recorded
  const instant = await timed([]);

  // The live call (through the recorder, to the real server) is the full-speed
  // run; the instant replay is the same path with no waits. Upper bounds
  // compare runs with one another, so a busy machine slows both sides.
  const liveMs = live.byLabel.get("long")!.elapsedMs;
  const figures =
    `live ${liveMs} ms, half ${half.ms} ms, capped ${capped.ms} ms, instant ${instant.ms} ms, recorded gaps ${total} ms`;

  // Half speed: never under half the recorded gaps (a hard floor), and about
  // half of what the full-speed run waited, once what no wait costs is taken off.
  assert.ok(half.ms >= total * 0.5 - TIMER_SLACK_MS, `scaled run under half the gaps: ${figures}`);
  const ratio = (half.ms - instant.ms) / (liveMs - instant.ms);
  assert.ok(
    ratio < 0.8,
    `scaled run waited ${ratio.toFixed(2)} of the live run's time: ${figures}`,
  );

  // Capped: each gap waits min(gap, cap), so at least that, and less than the scaled run.
  const cappedFloor = gaps.reduce((sum, gap) => sum + Math.min(gap, CAP_MS), 0);
  assert.ok(
    capped.ms >= cappedFloor - TIMER_SLACK_MS,
    `capped run under Σ min(gap, cap) = ${cappedFloor} ms: ${figures}`,
  );
  assert.ok(capped.ms < half.ms, `capped run not faster than the scaled one: ${figures}`);

  // Instant (the default): a fraction of the live run (a generous bound: its waits alone are 2 s).
  assert.ok(instant.ms < liveMs * 0.5, `instant run not well under the live one: ${figures}`);
});
