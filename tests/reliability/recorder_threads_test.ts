/**
 * The stdio recorder's threads (src/record/threads.ts): where Deno can hand
 * a child's pipes to other threads (Linux), each direction is copied on a
 * thread of its own; the recording must be what the main thread's would be.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import process from "node:process";
import { loadCassette } from "../../src/cassette/reader.ts";
import type { Entry } from "../../src/cassette/format.ts";
import { CLI, tempDir } from "../helpers.ts";
import { call, FIXTURE, initialize, LineProcess } from "./_helpers.ts";

// The recorder is always the Deno CLI (CLI), whichever runner runs this file.
const onThreads = process.platform === "linux";

/** The names of a process's threads (Linux). */
function threadNames(pid: number): string[] {
  return readdirSync(`/proc/${pid}/task`).map((task) =>
    readFileSync(`/proc/${pid}/task/${task}/comm`, "utf8").trim()
  );
}

/** The recorder in front of the reliability fixture; `threads: false` keeps it on its main thread. */
function recorder(cassette: string, threads = true): LineProcess {
  return new LineProcess([
    ...CLI,
    "record",
    "--append-window-ms",
    "0",
    "-o",
    cassette,
    "--",
    ...FIXTURE,
    "serve",
  ], {
    env: threads ? {} : { MCP_CASSETTE_RECORDER_THREADS: "0" },
  });
}

/** The wire text of each message entry in one direction, in cassette order. */
function sent(entries: Entry[], dir: "c2s" | "s2c"): string[] {
  return entries.flatMap((entry) =>
    entry.type === "message" && entry.dir === dir ? [JSON.stringify(entry.msg)] : []
  );
}

for (const threads of [true, false]) {
  const where = threads
    ? "on threads of its own"
    : "on the main thread (MCP_CASSETTE_RECORDER_THREADS=0)";
  test(`on Deno on Linux the recorder copies ${where}`, { skip: !onThreads }, async () => {
    const cassette = path.join(tempDir(), "threads.cassette.jsonl");
    const live = recorder(cassette, threads);
    live.send(initialize());
    await live.answer(1);
    // Deno names a Web Worker's thread "worker-N"; the recorder's two are its only workers.
    const names = threadNames(live.child.pid!);
    live.child.stdin.end();
    assert.equal((await live.closed).code, 0, live.stderr);
    assert.equal(
      names.filter((name) => name.startsWith("worker-")).length,
      threads ? 2 : 0,
      `threads: ${names.join(", ")}`,
    );
  });
}

for (const threads of [true, false]) {
  test(`both directions at once, ${threads ? "on threads" : "on the main thread"}: every frame recorded, in the order each side saw them`, async () => {
    const cassette = path.join(tempDir(), "both-ways.cassette.jsonl");
    const live = recorder(cassette, threads);
    const requests: unknown[] = [initialize()];
    live.send(requests[0]);
    await live.answer(1);
    // Bursts sent without waiting for answers: the server answers (a
    // notification, then the result) while requests still arrive, so both
    // threads write to the cassette at the same moments.
    for (let burst = 0; burst < 20; burst++) {
      for (let i = 0; i < 50; i++) {
        const request = call(requests.length + 1, "echo", { burst, i });
        requests.push(request);
        live.send(request);
      }
      await live.answer(requests.length, 10_000);
    }
    live.child.stdin.end();
    assert.equal((await live.closed).code, 0, live.stderr);
    const entries = (await loadCassette(cassette)).entries;
    assert.deepEqual(sent(entries, "c2s"), requests.map((request) => JSON.stringify(request)));
    assert.deepEqual(
      sent(entries, "s2c"),
      live.lines.map((line) => JSON.stringify(JSON.parse(line))),
    );
    assert.equal(live.lines.length, 1 + 2 * 1000);
    assert.deepEqual([entries[0].type, entries.at(-1)!.type], ["session", "session"]);
  });
}
