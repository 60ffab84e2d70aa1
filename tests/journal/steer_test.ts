/**
 * Steering a replay mid-test through the library, as `replay --listen
 * --control` does over HTTP: server-everything recorded twice by the
 * official SDK client (one cassette echoes "one", the other "two"), then
 * the SDK client over the in-process `ReplayTransport` and over the stdio
 * replay `startCassette` hands it (a real subprocess on real pipes, steered
 * over its loopback side channel): faults in force from the next request,
 * cleared, a reset that empties the journal and the use counts, a switch of
 * cassette, and bad input thrown as one line while the replay serves on.
 */
import { before, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { tempDir } from "../helpers.ts";
import { recordCommand, runClient } from "../faults_e2e/_shared.ts";
import type { Call } from "../faults_e2e/_shared.ts";
import { Client, StdioClientTransport, StreamableHTTPClientTransport } from "../sdk.ts";
import { ReplayTransport } from "../../src/api/transport.ts";
import { startCassette } from "../../src/api/start.ts";
import type { CassetteServer } from "../../src/api/start.ts";
import { CassetteError, ReplayMissError } from "../../src/errors/errors.ts";
import { expectCalled, expectCalledInOrder, expectNeverCalled } from "../../src/testing/expect.ts";

const ECHO_FAULT = [{
  match: { tool: "echo" },
  fault: { kind: "error", code: -32000, message: "echo is down" },
}];

const dir = tempDir("mcp-cassette-steer-");
const first = path.join(dir, "one.cassette.jsonl");
const second = path.join(dir, "two.cassette.jsonl");
const missing = path.join(dir, "missing.cassette.jsonl");

function echo(message: string): Call {
  return { label: message, op: "tools/call", name: "echo", arguments: { message } };
}

before(async () => {
  for (const [file, message] of [[first, "one"], [second, "two"]]) {
    const live = await runClient([echo(message)], recordCommand(file));
    assert.equal(live.calls[0].outcome, "ok", JSON.stringify(live.calls));
  }
});

/** The text the echo tool answered. */
async function echoed(client: InstanceType<typeof Client>, message: string): Promise<string> {
  const answer = await client.callTool({ name: "echo", arguments: { message } });
  return (answer.content as { text: string }[])[0].text;
}

function client(): InstanceType<typeof Client> {
  return new Client({ name: "steer", version: "1.0.0" });
}

/** A one-line CassetteError whose message matches `pattern`. */
function oneLine(pattern: RegExp) {
  return (error: Error) => {
    assert.ok(error instanceof CassetteError, String(error));
    assert.equal(error.message.split("\n").length, 1, error.message);
    assert.match(error.message, pattern);
    return true;
  };
}

test("ReplayTransport: useCassette serves the next session from the other cassette, and the journal covers both", async () => {
  const transport = await ReplayTransport.open(first);
  const sdk = client();
  await sdk.connect(transport);
  assert.equal(await echoed(sdk, "one"), "Echo: one");
  await assert.rejects(echoed(sdk, "two"), /-32001/, "the first cassette never recorded two");
  await transport.control.useCassette(second);
  // The open session stays on its cassette, as an HTTP session does.
  await assert.rejects(echoed(sdk, "two"), /-32001/);
  await sdk.close();
  await sdk.connect(transport);
  assert.equal(await echoed(sdk, "two"), "Echo: two");
  const journal = await transport.control.journal();
  expectCalledInOrder({ journal }, [
    { tool: "echo", with: { message: "one" } },
    { tool: "echo", with: { message: "two" } },
    { tool: "echo", with: { message: "two" } },
  ]);
  assert.deepEqual(
    journal.requests.filter((entry) => entry.tool === "echo").map((entry) => entry.outcome),
    ["exact", "miss", "miss", "exact"],
  );
  await sdk.close();
  await assert.rejects(transport.finish(), ReplayMissError, "the first session's misses count");
});

test("ReplayTransport: a miss on the cassette switched to fails finish(), as one on the first does", async () => {
  const transport = await ReplayTransport.open(first);
  await transport.control.useCassette(second);
  const sdk = client();
  await sdk.connect(transport);
  await assert.rejects(echoed(sdk, "one"), /-32001/, "the second cassette never recorded one");
  await sdk.close();
  await assert.rejects(transport.finish(), ReplayMissError);
});

test("ReplayTransport: an overlay given as a value, a cassette that cannot be read: one line, and the replay serves on", async () => {
  const transport = await ReplayTransport.open(first);
  const sdk = client();
  await sdk.connect(transport);
  await assert.rejects(transport.control.useCassette(missing), oneLine(/missing\.cassette\.jsonl/));
  transport.control.setFaults(ECHO_FAULT);
  await assert.rejects(echoed(sdk, "one"), /echo is down/);
  transport.control.clearFaults();
  assert.equal(await echoed(sdk, "one"), "Echo: one", "still served, from the same cassette");
  await sdk.close();
  await sdk.connect(transport);
  assert.equal(await echoed(sdk, "one"), "Echo: one", "a new session: still the first cassette");
  await sdk.close();
  await transport.finish();
});

/** Connects a fresh SDK client to the stdio replay the server hands out. */
async function launch(server: CassetteServer) {
  const sdk = client();
  await sdk.connect(new StdioClientTransport({ command: server.command, args: server.args }));
  return sdk;
}

test("startCassette (stdio): faults from the next request, cleared, then a reset that empties the journal and the use counts", async () => {
  const server = await startCassette({ path: first, mode: "none" });
  const sdk = await launch(server);
  assert.equal(await echoed(sdk, "one"), "Echo: one");
  await server.control.setFaults(JSON.stringify(ECHO_FAULT));
  await assert.rejects(echoed(sdk, "one"), /echo is down/);
  await server.control.clearFaults();
  assert.equal(await echoed(sdk, "one"), "Echo: one");
  let journal = await server.control.journal();
  expectCalled({ journal }, "echo", { times: 3, with: { message: "one" } });
  assert.deepEqual(journal.requests.map((entry) => [entry.method, entry.outcome, entry.session]), [
    ["initialize", "exact", "1"],
    ["tools/call", "exact", "1"],
    ["tools/call", "fault", "1"],
    ["tools/call", "repeat", "1"],
  ]);
  await server.control.reset();
  journal = await server.control.journal();
  assert.deepEqual(journal.requests, []);
  expectNeverCalled({ journal }, "echo");
  // The use counts start afresh: the recording is unused again, so not a repeat.
  assert.equal(await echoed(sdk, "one"), "Echo: one");
  journal = await server.control.journal();
  assert.deepEqual(journal.requests.map((entry) => entry.outcome), ["out-of-order"]);
  await sdk.close();
  const result = await server.finish();
  // The launch's report counts from the reset: one use, out of order, and no repeat.
  const echoUse = result.recorded.find((row) => row.name === "echo");
  assert.deepEqual(echoUse && [echoUse.played, echoUse.repeated, echoUse.outOfOrder], [1, 0, 1]);
});

test("startCassette (stdio): useCassette and setFaults reach the launches to come", async () => {
  const server = await startCassette({ path: first, mode: "none" });
  await server.control.setFaults(ECHO_FAULT);
  let sdk = await launch(server);
  await assert.rejects(
    echoed(sdk, "one"),
    /echo is down/,
    "in force from a launch's first request",
  );
  await server.control.clearFaults();
  await server.control.useCassette(second);
  await assert.rejects(echoed(sdk, "two"), /-32001/, "a running launch stays on its cassette");
  await sdk.close();
  sdk = await launch(server);
  assert.equal(await echoed(sdk, "two"), "Echo: two", "the next launch replays the other cassette");
  await sdk.close();
  const journal = await server.control.journal();
  assert.deepEqual(
    journal.requests.filter((entry) => entry.tool === "echo").map((entry) => [
      entry.session,
      entry.arguments,
      entry.outcome,
    ]),
    [
      ["1", { message: "one" }, "fault"],
      ["1", { message: "two" }, "miss"],
      ["2", { message: "two" }, "exact"],
    ],
  );
  await assert.rejects(server.finish(), ReplayMissError);
});

test("startCassette (stdio): an overlay that does not parse, a cassette that cannot be read: one line, and the launch serves on", async () => {
  const server = await startCassette({ path: first, mode: "none" });
  const sdk = await launch(server);
  await assert.rejects(
    async () => await server.control.setFaults("{ not an overlay"),
    oneLine(/not valid JSON/),
  );
  await assert.rejects(server.control.useCassette(missing), oneLine(/missing\.cassette\.jsonl/));
  assert.equal(await echoed(sdk, "one"), "Echo: one", "no fault in force, the same cassette");
  await sdk.close();
  const again = await launch(server);
  assert.equal(await echoed(again, "one"), "Echo: one", "the next launch: the same cassette");
  await again.close();
  const result = await server.finish();
  expectCalled(result, "echo", { times: 2 });
});

test("startCassette (stdio): the launch's side channel takes its token and the Host/Origin guard", async () => {
  const server = await startCassette({ path: first, mode: "none" });
  const sdk = await launch(server);
  await server.control.journal(); // waits for the launch's side channel to listen
  const runLog = server.args[server.args.indexOf("--run-log") + 1];
  const start = readFileSync(runLog, "utf8").split("\n").filter(Boolean).map((line) =>
    JSON.parse(line)
  ).find((line) => line.event === "control");
  const { url, token } = start.control as { url: string; token: string };
  assert.match(url, /^http:\/\/127\.0\.0\.1:\d+$/);
  const bearer = { authorization: `Bearer ${token}` };
  const none = await fetch(`${url}/__cassette/journal`);
  assert.equal(none.status, 401);
  await none.body?.cancel();
  const wrong = await fetch(`${url}/__cassette/journal`, {
    headers: { authorization: "Bearer x" },
  });
  assert.equal(wrong.status, 401);
  await wrong.body?.cancel();
  const foreign = await fetch(`${url}/__cassette/journal`, {
    headers: { ...bearer, origin: "http://evil.example" },
  });
  assert.equal(foreign.status, 403);
  await foreign.body?.cancel();
  const asked = await fetch(`${url}/__cassette/journal`, { headers: bearer });
  assert.equal(asked.status, 200);
  assert.equal(((await asked.json()) as { requests: unknown[] }).requests.length, 1);
  assert.equal(await echoed(sdk, "one"), "Echo: one");
  await sdk.close();
  await server.finish();
});

test("startCassette (http): the same control, in process", async () => {
  const server = await startCassette({ path: first, mode: "none", transport: "http" });
  const connect = async () => {
    const sdk = client();
    await sdk.connect(new StreamableHTTPClientTransport(new URL(server.url!)));
    return sdk;
  };
  const sdk = await connect();
  await server.control.setFaults(ECHO_FAULT);
  await assert.rejects(echoed(sdk, "one"), /echo is down/);
  await server.control.clearFaults();
  assert.equal(await echoed(sdk, "one"), "Echo: one");
  await server.control.useCassette(second);
  const other = await connect();
  assert.equal(await echoed(other, "two"), "Echo: two", "a new session: the other cassette");
  await assert.rejects(server.control.useCassette(missing), oneLine(/missing\.cassette\.jsonl/));
  assert.equal(await echoed(other, "two"), "Echo: two", "served on, from the same cassette");
  expectCalledInOrder(
    { journal: await server.control.journal() },
    [{ tool: "echo", with: { message: "one" } }, { tool: "echo", with: { message: "two" } }],
  );
  await sdk.close();
  await other.close();
  await server.finish();
});
