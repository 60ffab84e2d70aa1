/**
 * 2025-11-25 task-augmented requests over stdio, with real parts: the SDK
 * client's task stream (tools/call with `task`, CreateTaskResult, tasks/get
 * polling, tasks/result) against server-everything's research tool, through
 * `record` and then against `replay`.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { CLI, EVERYTHING, run, SDK_SESSION, tempDir } from "../helpers.ts";

test("a task-augmented call replays: created, polled to completion, same result", async () => {
  const cassette = path.join(tempDir(), "tasks.cassette.jsonl");
  const live = await run([
    ...SDK_SESSION,
    "--scenario",
    "tasks",
    "--",
    ...CLI,
    "record",
    "-o",
    cassette,
    "--",
    ...EVERYTHING,
  ]);
  assert.equal(live.code, 0, live.stderr);
  const recorded = JSON.parse(live.stdout);
  const research = recorded.results.research as { type: string; status?: string }[];
  assert.equal(research[0].type, "taskCreated");
  assert.equal(research.at(-2)?.status, "completed");
  assert.equal(research.at(-1)?.type, "result");
  const methods = readFileSync(cassette, "utf8").split("\n").filter((line) =>
    line.includes('"c2s"')
  )
    .map((line) => JSON.parse(line).msg.method);
  assert.ok(methods.includes("tasks/get") && methods.includes("tasks/result"), methods.join(","));

  const replay = await run([
    ...SDK_SESSION,
    "--scenario",
    "tasks",
    "--",
    ...CLI,
    "replay",
    cassette,
  ]);
  assert.equal(replay.code, 0, replay.stderr);
  assert.deepEqual(JSON.parse(replay.stdout), recorded);
});
