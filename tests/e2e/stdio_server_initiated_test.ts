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
import {
  assertSameSession,
  CLI,
  EVERYTHING,
  recordedProgress,
  run,
  SDK_SESSION,
  tempDir,
} from "../helpers.ts";
import { LineProcess } from "../reliability/_helpers.ts";

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
  const replay = await run([
    ...SDK_SESSION,
    "--scenario",
    "initiated",
    "--",
    ...CLI,
    "replay",
    "--strict",
    cassette,
  ]);
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
  assert.match(
    results.sampling.thrown.message,
    /answered sampling\/createMessage differently at \$\.result\.content\.text/,
  );
});

test("a client that never answers a server request gets a timeout report, and the session goes on", async () => {
  const live = await recording;
  assert.equal(live.code, 0, live.stderr);
  const reportFile = path.join(dir, "timeout-report.json");
  const replay = new LineProcess([
    ...CLI,
    "replay",
    "--answer-timeout-ms",
    "300",
    "--report",
    reportFile,
    cassette,
  ]);
  replay.send({
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: {
      protocolVersion: "2025-11-25",
      capabilities: { sampling: {} },
      clientInfo: { name: "mute", version: "1" },
    },
  });
  await replay.answer(1);
  replay.send({ jsonrpc: "2.0", method: "notifications/initialized" });
  replay.send({
    jsonrpc: "2.0",
    id: 2,
    method: "tools/call",
    params: { name: "trigger-sampling-request", arguments: { prompt: "Say hi", maxTokens: 20 } },
  });
  // The question is asked, never answered; after the timeout the recorded result still comes.
  await replay.until(
    () => replay.messages().some((message) => message.method === "sampling/createMessage"),
    "the sampling request",
  );
  const answer = await replay.answer(2);
  assert.ok(answer.result, JSON.stringify(answer));
  replay.send({ jsonrpc: "2.0", id: 3, method: "tools/list" });
  assert.ok(((await replay.answer(3)).result as { tools: unknown[] }).tools.length > 0);
  assert.equal((await replay.finish()).code, 0, replay.stderr);
  const report = JSON.parse(readFileSync(reportFile, "utf8"));
  assert.equal(report.timeouts.length, 1);
  assert.match(report.timeouts[0], /never answered sampling\/createMessage \(waited 300 ms\)/);
  assert.deepEqual(
    report.serverInitiated.find((item: { method: string }) =>
      item.method === "sampling/createMessage"
    ),
    {
      method: "sampling/createMessage",
      delivered: true,
      outcome: "timeout",
    },
  );
});

test("notifications/cancelled stops the replay of that request: no response, the session goes on", async () => {
  const live = await recording;
  assert.equal(live.code, 0, live.stderr);
  // Recorded pacing, five times slower, keeps the long operation long enough to cancel it
  // midway: at the recorded pace the test had 0.2 s between the first progress and the
  // answer to notice one and cancel, too little on a loaded machine.
  const replay = new LineProcess([
    ...CLI,
    "replay",
    "--pace",
    "recorded",
    "--pace-scale",
    "5",
    cassette,
  ]);
  replay.send({
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: {
      protocolVersion: "2025-11-25",
      capabilities: {},
      clientInfo: { name: "c", version: "1" },
    },
  });
  await replay.answer(1);
  replay.send({ jsonrpc: "2.0", method: "notifications/initialized" });
  replay.send({
    jsonrpc: "2.0",
    id: 7,
    method: "tools/call",
    params: {
      name: "trigger-long-running-operation",
      arguments: { duration: 0.3, steps: 3 },
      _meta: { progressToken: 7 },
    },
  });
  await replay.until(
    () => replay.messages().some((message) => message.method === "notifications/progress"),
    "the first progress notification",
  );
  replay.send({
    jsonrpc: "2.0",
    method: "notifications/cancelled",
    params: { requestId: 7, reason: "user" },
  });
  replay.send({ jsonrpc: "2.0", id: 8, method: "tools/list" });
  assert.ok(((await replay.answer(8)).result as { tools: unknown[] }).tools.length > 0);
  // Longer than the rest of the recorded operation (0.3 s, paced five times slower): its
  // answer would have come by now.
  await new Promise((resolve) => setTimeout(resolve, 2_000));
  assert.equal(
    replay.messages().filter((message) => message.id === 7).length,
    0,
    "the cancelled request got no response",
  );
  assert.ok(
    replay.messages().filter((message) => message.method === "notifications/progress").length < 3,
  );
  await replay.finish();
});
