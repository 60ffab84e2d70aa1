/**
 * The control endpoint of `replay --listen --control`: server-everything
 * recorded once by the SDK client (and a second cassette to switch to),
 * served by a real replay process; each endpoint over raw HTTP while the
 * official SDK client (tests/fixtures/faults/fault_client.ts, over
 * Streamable HTTP) drives MCP traffic whose answers it changes; the curl
 * lines of docs/control.md run as written; bad input answered with one
 * JSON error object while the replay serves on; and the same controls in
 * process through `ReplayTransport.control`.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { CLI, ROOT, run, tempDir } from "../helpers.ts";
import { startBackground, URL_LINE } from "../http/http_helpers.ts";
import type { Background } from "../http/http_helpers.ts";
import { recordCommand, runClient } from "../faults_e2e/_shared.ts";
import type { Call } from "../faults_e2e/_shared.ts";
import { Client } from "../sdk.ts";
import { ReplayTransport } from "../../src/api/transport.ts";
import { CassetteError } from "../../src/errors/errors.ts";
import type { Journal } from "../../src/replay/journal.ts";

const ECHO_ONE: Call = {
  label: "one",
  op: "tools/call",
  name: "echo",
  arguments: { message: "one" },
};
const ECHO_TWO: Call = {
  label: "two",
  op: "tools/call",
  name: "echo",
  arguments: { message: "two" },
};
const ECHO_FAULT = [{
  match: { tool: "echo" },
  fault: { kind: "error", code: -32000, message: "echo is down" },
}];

const dir = tempDir("mcp-cassette-control-");
const first = path.join(dir, "one.cassette.jsonl");
const second = path.join(dir, "two.cassette.jsonl");
let replay: Background;
let base = "";

before(async () => {
  await runClient([ECHO_ONE], recordCommand(first));
  await runClient([ECHO_TWO], recordCommand(second));
  replay = await startBackground(
    [...CLI, "replay", first, "--listen", "127.0.0.1:0", "--control"],
    URL_LINE,
  );
  base = new URL(replay.found).origin;
});

after(async () => {
  await replay?.stop();
});

async function control(method: string, what: string, body?: string, headers = {}) {
  const response = await fetch(`${base}/__cassette/${what}`, { method, body, headers });
  return { status: response.status, body: await response.json() };
}

async function journal(): Promise<Journal> {
  const answer = await control("GET", "journal");
  assert.equal(answer.status, 200);
  return answer.body as Journal;
}

/** What the SDK client saw for each call, over Streamable HTTP to the replay. */
async function calls(list: Call[]) {
  return (await runClient(list, { url: replay.found })).calls;
}

test("GET journal, POST reset: the SDK client's requests are journaled, and a reset empties the journal", async () => {
  await control("POST", "reset");
  assert.deepEqual((await journal()).requests, []);
  const [seen] = await calls([ECHO_ONE]);
  assert.equal(seen.outcome, "ok");
  const echo = (await journal()).requests.find((entry) => entry.tool === "echo");
  assert.deepEqual(echo && { ...echo, session: typeof echo.session }, {
    method: "tools/call",
    tool: "echo",
    arguments: { message: "one" },
    session: "string",
    outcome: "exact",
    line: echo?.line,
  });
  assert.equal((await control("POST", "reset")).status, 200);
  assert.deepEqual(await journal(), { requests: [], dropped: 0, limit: 10_000 });
});

test("POST and DELETE faults: an overlay is in force from the next request, then gone", async () => {
  const posted = await control("POST", "faults", JSON.stringify(ECHO_FAULT));
  assert.equal(posted.status, 200);
  const [faulted] = await calls([ECHO_ONE]);
  assert.equal(faulted.code, -32000);
  assert.equal(faulted.message, "MCP error -32000: echo is down");
  const entries = (await journal()).requests.filter((entry) => entry.tool === "echo");
  assert.equal(entries.at(-1)?.outcome, "fault");
  assert.equal((await control("DELETE", "faults")).status, 200);
  const [healed] = await calls([ECHO_ONE]);
  assert.equal(healed.outcome, "ok");
});

test("POST cassette: new sessions are served from the other cassette", async () => {
  const [before] = await calls([ECHO_TWO]);
  assert.equal(before.code, -32001, "the first cassette never recorded echo two");
  const switched = await control("POST", "cassette", JSON.stringify({ path: second }));
  assert.equal(switched.status, 200);
  const [now] = await calls([ECHO_TWO]);
  assert.equal(now.outcome, "ok");
  assert.equal(now.text, "Echo: two");
  const last = (await journal()).requests.at(-1);
  assert.equal(last?.outcome, "exact");
  assert.equal(last?.tool, "echo");
  await control("POST", "cassette", JSON.stringify({ path: first }));
});

test("bad input is one JSON error object naming it, and the replay serves on", async () => {
  const overlay = await control("POST", "faults", "{ not an overlay");
  assert.equal(overlay.status, 400);
  assert.match(overlay.body.error, /^the posted fault overlay:1:\d+: not valid JSON/);
  const missing = path.join(dir, "missing.cassette.jsonl");
  const cassette = await control("POST", "cassette", JSON.stringify({ path: missing }));
  assert.equal(cassette.status, 400);
  assert.ok(cassette.body.error.includes(missing), cassette.body.error);
  const shape = await control("POST", "cassette", "nope");
  assert.match(shape.body.error, /takes \{"path": "…"\}/);
  const foreign = await control("GET", "journal", undefined, { origin: "http://evil.example" });
  assert.equal(foreign.status, 403);
  assert.match(foreign.body.error.message, /Origin "http:\/\/evil\.example" is not allowed/);
  assert.equal(foreign.body.requests, undefined);
  const unknown = await control("GET", "nothing");
  assert.equal(unknown.status, 404);
  assert.match(unknown.body.error, /GET \/__cassette\/nothing is not a control request/);
  const [served] = await calls([ECHO_ONE]);
  assert.equal(served.outcome, "ok", "the replay still serves, with no fault in force");
});

test("the curl lines of docs/control.md run as written", async () => {
  const text = readFileSync(path.join(ROOT, "docs", "control.md"), "utf8");
  const block = text.slice(
    text.indexOf("```sh\ncurl"),
    text.indexOf("```", text.indexOf("```sh\ncurl") + 3),
  );
  const lines = block.split("\n").filter((line) => line.startsWith("curl "));
  assert.equal(lines.length, 6, block);
  const env = { REPLAY: base, OTHER_CASSETTE: second };
  const answers = [];
  for (const line of lines) {
    const result = await run(["sh", "-c", line], { env });
    assert.equal(result.code, 0, `${line}: ${result.stderr}`);
    answers.push(JSON.parse(result.stdout));
  }
  assert.ok(Array.isArray(answers[0].requests));
  assert.deepEqual(answers.slice(1, 5), [
    { faults: "in force from the next request" },
    { faults: "cleared" },
    { reset: true },
    { cassette: second, for: "new sessions" },
  ]);
  assert.match(answers[5].error, /^the posted fault overlay/);
  await control("POST", "cassette", JSON.stringify({ path: first }));
});

test("without --control the paths are not answered; --control without --listen is exit 2", async () => {
  const plain = await startBackground(
    [...CLI, "replay", first, "--listen", "127.0.0.1:0"],
    URL_LINE,
  );
  try {
    const response = await fetch(`${new URL(plain.found).origin}/__cassette/journal`);
    const text = await response.text();
    assert.notEqual(response.status, 200, text);
    assert.ok(!text.includes("requests"), text);
    const reset = await fetch(`${new URL(plain.found).origin}/__cassette/reset`, {
      method: "POST",
    });
    assert.notEqual(reset.status, 200);
    await reset.body?.cancel();
  } finally {
    await plain.stop();
  }
  const stdio = await run([...CLI, "replay", first, "--control"]);
  assert.equal(stdio.code, 2);
  assert.match(stdio.stderr, /--control needs --listen/);
  assert.equal(stdio.stderr.trim().split("\n").length, 1);
});

test("in process: ReplayTransport.control puts faults in force, reads and resets the journal", async () => {
  const transport = await ReplayTransport.open(first);
  const client = new Client({ name: "control", version: "1.0.0" });
  await client.connect(transport);
  assert.throws(() => transport.control.setFaults("{ nope"), (error: Error) => {
    assert.ok(error instanceof CassetteError);
    assert.equal(error.message.split("\n").length, 1);
    return true;
  });
  transport.control.setFaults(JSON.stringify(ECHO_FAULT));
  await assert.rejects(
    client.callTool({ name: "echo", arguments: { message: "one" } }),
    /echo is down/,
  );
  transport.control.clearFaults();
  const answer = await client.callTool({ name: "echo", arguments: { message: "one" } });
  assert.deepEqual(answer.content, [{ type: "text", text: "Echo: one" }]);
  const outcomes = (await transport.control.journal()).requests.map((entry) => entry.outcome);
  // initialize, then the faulted echo (it used the recording), then its repeat.
  assert.deepEqual(outcomes, ["exact", "fault", "repeat"]);
  transport.control.reset();
  assert.equal((await transport.control.journal()).requests.length, 0);
  // After the reset the session's recording starts again, its initialize included: the echo
  // is answered from it as never played (not a repeat), ahead of that initialize.
  await client.callTool({ name: "echo", arguments: { message: "one" } });
  const fresh = (await transport.control.journal()).requests.map((e) => e.outcome);
  assert.deepEqual(fresh, ["out-of-order"]);
  await client.close();
});
