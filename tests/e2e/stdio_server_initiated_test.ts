/**
 * Server-initiated traffic over stdio, with real parts: the SDK client with
 * sampling, elicitation and roots handlers drives server-everything through
 * `record`, then `replay` must ask the same questions, in order, show the
 * same progress, and give the same results; a client that answers sampling
 * differently is reported at the right path.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { assertSameSession, CLI, EVERYTHING, recordedProgress, run, SDK_SESSION, tempDir } from "../helpers.ts";

const dir = tempDir();
const cassette = path.join(dir, "initiated.cassette.jsonl");
// Detectors off: the elicitation answer carries an e-mail address, which the
// default redaction would scrub from the recorded result text.
const recording = run([
  ...SDK_SESSION,
  "--scenario",
  "initiated",
  "--",
  ...CLI,
  "record",
  "--no-detectors",
  "-o",
  cassette,
  "--",
  ...EVERYTHING,
]);

test("replay asks the recorded questions, shows the recorded progress, gives the recorded results", async () => {
  const live = await recording;
  assert.equal(live.code, 0, live.stderr);
  const recorded = JSON.parse(live.stdout);
  assert.deepEqual(recorded.asked.map((question: { method: string }) => question.method), [
    "sampling/createMessage",
    "elicitation/create",
    "roots/list",
  ]);
  const replay = await run([...SDK_SESSION, "--scenario", "initiated", "--", ...CLI, "replay", "--strict", cassette]);
  assert.equal(replay.code, 0, replay.stderr);
  assertSameSession(JSON.parse(replay.stdout), recorded, cassette);
  assert.equal(recordedProgress(cassette).length, 3);
  assert.doesNotMatch(replay.stderr, /divergent/);
});

test("a client that answers sampling differently is reported at the differing path", async () => {
  const reportFile = path.join(dir, "report.json");
  const live = await recording;
  assert.equal(live.code, 0, live.stderr);
  const lenient = await run([
    ...SDK_SESSION,
    "--scenario",
    "initiated",
    "--sampling-text",
    "A different answer",
    "--",
    ...CLI,
    "replay",
    "--report",
    reportFile,
    cassette,
  ]);
  assert.equal(lenient.code, 0, lenient.stderr);
  const report = JSON.parse(readFileSync(reportFile, "utf8"));
  assert.deepEqual(report.divergences, [{
    method: "sampling/createMessage",
    path: "$.result.content.text",
    before: "Recorded sampling answer",
    after: "A different answer",
  }]);
  assert.deepEqual(
    report.serverInitiated.filter((item: { outcome: string }) => item.outcome !== "notification"),
    [
      { method: "sampling/createMessage", delivered: true, outcome: "divergent" },
      { method: "elicitation/create", delivered: true, outcome: "as-recorded" },
      { method: "roots/list", delivered: true, outcome: "as-recorded" },
    ],
  );

  const strict = await run([
    ...SDK_SESSION,
    "--scenario",
    "initiated",
    "--sampling-text",
    "A different answer",
    "--",
    ...CLI,
    "replay",
    "--strict",
    cassette,
  ]);
  const results = JSON.parse(strict.stdout).results;
  assert.equal(results.sampling.thrown.code, -32001);
  assert.match(results.sampling.thrown.message, /answered sampling\/createMessage differently at \$\.result\.content\.text/);
});
