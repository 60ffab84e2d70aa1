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
import { CLI, EVERYTHING, run, SDK_SESSION, tempDir } from "../helpers.ts";

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
  const replayed = JSON.parse(replay.stdout);
  assert.deepEqual(replayed.results, recorded.results);
  assert.deepEqual(replayed.asked, recorded.asked);
  // The live client may miss the last progress notification (the SDK handles
  // notifications a tick after responses); replay leaves it time to see all
  // that the server sent.
  const sent = readFileSync(cassette, "utf8").split("\n").filter((line) => line.includes('"notifications/progress"'))
    .map((line) => {
      const { progress, total } = JSON.parse(line).msg.params;
      return { progress, total };
    });
  assert.equal(sent.length, 3);
  assert.deepEqual(replayed.progress, sent);
  assert.deepEqual(recorded.progress, sent.slice(0, recorded.progress.length));
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
