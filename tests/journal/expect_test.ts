/**
 * The expectations over the journal: server-everything recorded once by the
 * official SDK client, replayed in process (`ReplayTransport`) and through
 * `startCassette`'s stdio launches; each expectation holds where it should
 * and fails with a message that shows the journal where it should not.
 */
import { before, test } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import { tempDir } from "../helpers.ts";
import { recordCommand, runClient } from "../faults_e2e/_shared.ts";
import type { Call } from "../faults_e2e/_shared.ts";
import { Client, StdioClientTransport } from "../sdk.ts";
import { ReplayTransport } from "../../src/api/transport.ts";
import { startCassette } from "../../src/api/start.ts";
import { UsageError } from "../../src/errors/errors.ts";
import type { ReplayReport } from "../../src/replay/report.ts";
import {
  expectAllPlayed,
  ExpectationError,
  expectCalled,
  expectCalledInOrder,
  expectNeverCalled,
} from "../../src/testing/mod.ts";

const RECORDED: Call[] = [
  { label: "list", op: "tools/list" },
  { label: "echo", op: "tools/call", name: "echo", arguments: { message: "one" } },
  { label: "sum", op: "tools/call", name: "get-sum", arguments: { a: 2, b: 40 } },
  { label: "env", op: "tools/call", name: "get-env" },
];

const dir = tempDir("mcp-cassette-expect-");
const cassette = path.join(dir, "everything.cassette.jsonl");

before(async () => {
  const live = await runClient(RECORDED, recordCommand(cassette));
  assert.ok(live.calls.every((call) => call.outcome === "ok"), JSON.stringify(live.calls));
});

/** Replays in process: echo "one", get-sum {2, 40}, echo "two" (a miss), then closes. */
async function replayed(): Promise<ReplayReport> {
  const transport = await ReplayTransport.open(cassette);
  const client = new Client({ name: "expect", version: "1.0.0" });
  await client.connect(transport);
  await client.callTool({ name: "echo", arguments: { message: "one" } });
  await client.callTool({ name: "get-sum", arguments: { a: 2, b: 40 } });
  await assert.rejects(client.callTool({ name: "echo", arguments: { message: "two" } }), /-32001/);
  await client.close();
  return transport.report;
}

/** The ExpectationError `fn` throws, asserted to be one. */
function failure(fn: () => void): ExpectationError {
  try {
    fn();
  } catch (error) {
    assert.ok(error instanceof ExpectationError, String(error));
    assert.ok(error instanceof assert.AssertionError, "runners take it for a failed assertion");
    return error;
  }
  assert.fail("the expectation held");
}

test("expectCalled: at least once, N times, with arguments containing a subset", async () => {
  const report = await replayed();
  expectCalled(report, "echo");
  expectCalled(report, "echo", { times: 2 });
  expectCalled(report, "get-sum", { times: 1, with: { a: 2 } });
  expectCalled(report, "echo", { times: 1, with: { message: "two" } });
  const times = failure(() => expectCalled(report, "echo", { times: 3 }));
  assert.match(times.message, /expected echo to be called 3 times, it was called 2 times/);
  assert.match(times.message, /#2 tools\/call echo \{"message":"one"\} \(exact, line \d+\)/);
  assert.match(times.message, /#4 tools\/call echo \{"message":"two"\} \(miss\)/);
  const subset = failure(() => expectCalled(report, "get-sum", { with: { a: 3 } }));
  assert.match(subset.message, /get-sum with arguments containing \{"a":3\}/);
  assert.match(subset.message, /\$\.a: expected 3, got 2/);
  const never = failure(() => expectCalled(report, "get-env"));
  assert.match(never.message, /no call of get-env in the journal/);
});

test("expectNeverCalled and expectCalledInOrder (others allowed between)", async () => {
  const report = await replayed();
  expectNeverCalled(report, "get-env");
  expectCalledInOrder(report, ["echo", "get-sum"]);
  expectCalledInOrder(report, ["echo", { tool: "echo", with: { message: "two" } }]);
  const called = failure(() => expectNeverCalled(report, "get-sum"));
  assert.match(called.message, /expected get-sum never to be called, it was called 1 time/);
  const order = failure(() => expectCalledInOrder(report, ["get-sum", "echo", "get-sum"]));
  assert.match(
    order.message,
    /found get-sum at #3\n {2}found echo at #4\n {2}missing: get-sum after #4/,
  );
  assert.match(order.message, /the tools called, in order: echo, get-sum, echo/);
});

test("expectAllPlayed: every recording played but those marked optional", async () => {
  const report = await replayed();
  const unplayed = failure(() => expectAllPlayed(report));
  assert.match(unplayed.message, /2 never was/);
  assert.match(unplayed.message, /line \d+: tools\/list\n {2}line \d+: tools\/call get-env/);
  const listLine = report.recorded.find((row) => row.method === "tools/list")!.line;
  expectAllPlayed(report, { optional: ["get-env", listLine] });
});

test("an expectation on a tool the cassette does not know is one line naming it", async () => {
  const report = await replayed();
  for (
    const call of [
      () => expectCalled(report, "ehco"),
      () => expectNeverCalled(report, "ehco"),
      () => expectCalledInOrder(report, ["echo", "ehco"]),
      () => expectAllPlayed(report, { optional: ["ehco"] }),
    ]
  ) {
    assert.throws(call, (error: Error) => {
      assert.ok(error instanceof UsageError);
      assert.match(error.message, /the cassette knows no tool "ehco" \(it knows .*echo.*get-sum/);
      assert.equal(error.message.split("\n").length, 1);
      return true;
    });
  }
  // A tool the recording lists but never called is known: never calling it is a fair expectation.
  assert.ok(report.tools?.includes("get-tiny-image"), JSON.stringify(report.tools));
  expectNeverCalled(report, "get-tiny-image");
});

test("startCassette's result: expectations over every stdio launch of a test", async () => {
  const server = await startCassette({ path: cassette, mode: "none" });
  for (const message of ["one", "one"]) {
    const client = new Client({ name: "expect", version: "1.0.0" });
    await client.connect(new StdioClientTransport({ command: server.command, args: server.args }));
    await client.callTool({ name: "echo", arguments: { message } });
    await client.close();
  }
  const result = await server.finish();
  expectCalled(result, "echo", { times: 2, with: { message: "one" } });
  expectNeverCalled(result, "get-sum");
  const unplayed = failure(() => expectAllPlayed(result, { optional: ["get-env"] }));
  assert.match(unplayed.message, /line \d+: tools\/list\n {2}line \d+: tools\/call get-sum$/);
});
