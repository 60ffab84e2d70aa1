/**
 * The fault matrix, end to end over stdio with real parts: the official SDK
 * v1 client (tests/fixtures/faults/fault_client.ts) runs one list of calls
 * through `record` against server-everything once, then against
 * `replay --faults FILE` of that cassette with one overlay per case. Each
 * case says what the client sees: the recorded result, the overlay's error,
 * its own request timeout, or a closed connection. Calls the overlay does not
 * aim at must still get their recorded answers.
 *
 * What the SDK v1 client sees for a malformed answer (stdio): never an
 * error for the request itself. A truncated line and a line that is not JSON
 * fail to parse; an answer with the wrong id matches no pending request. The
 * SDK reports each on `Client.onerror` and drops it, so the request runs into
 * the client's own timeout (-32001 "Request timed out").
 *
 * The HTTP-only kinds (http-status, sse-drop) are in http_faults_test.ts.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { tempDir } from "../helpers.ts";
import type { Call, ClientRun, Outcome } from "./_shared.ts";
import { recordCommand, replayCommand, runClient, writeFile } from "./_shared.ts";

const dir = tempDir("mcp-cassette-faults-");
const cassette = path.join(dir, "everything.cassette.jsonl");

/** The client's per-call timeout: short, since timeout and malformed cases wait it out. */
const CLIENT_TIMEOUT_MS = 2000;

const ROLLS = Array.from({ length: 8 }, (_, i) => `roll-${i + 1}`);

/** One list of calls for the recording and every replay. */
const CALLS: Call[] = [
  { label: "list", op: "tools/list" },
  { label: "echo-1", op: "tools/call", name: "echo", arguments: { message: "one" } },
  { label: "echo-2", op: "tools/call", name: "echo", arguments: { message: "two" } },
  { label: "echo-3", op: "tools/call", name: "echo", arguments: { message: "three" } },
  { label: "sum", op: "tools/call", name: "get-sum", arguments: { a: 2, b: 40 } },
  { label: "prompt", op: "prompts/get", name: "simple-prompt" },
  { label: "read", op: "resources/read", uri: "demo://resource/static/document/architecture.md" },
  { label: "ping", op: "ping" },
  ...ROLLS.map((label): Call => ({
    label,
    op: "tools/call",
    name: "echo",
    arguments: { message: label },
  })),
];

const recording = runClient(CALLS, recordCommand(cassette));

/** One replay of the cassette under an overlay; resolves with the client's view and the replay's report. */
async function replayCase(name: string, overlay: unknown, flags: string[] = []) {
  const live = await recording;
  const faults = writeFile(dir, `${name}.faults.json`, overlay);
  const reportFile = path.join(dir, `${name}.report.json`);
  const client = await runClient(
    CALLS,
    replayCommand(cassette, ["--faults", faults, "--report", reportFile, ...flags]),
    { timeoutMs: CLIENT_TIMEOUT_MS, serverStderr: path.join(dir, `${name}.stderr.txt`) },
  );
  const report = existsSync(reportFile) ? JSON.parse(readFileSync(reportFile, "utf8")) : undefined;
  return { live, client, report };
}

/** Starts a case at once (cases run side by side); the test awaits it. */
function startCase(name: string, overlay: unknown, flags: string[] = []) {
  const started = replayCase(name, overlay, flags);
  started.catch(() => {}); // awaited by its test; no unhandled rejection meanwhile
  return started;
}

const matrix = startCase("matrix", {
  faults: [
    {
      name: "list rate limit",
      match: { method: "tools/list" },
      fault: { kind: "error", code: -32000, message: "rate limited", data: { retryAfter: 5 } },
    },
    { match: { tool: "echo", nth: 1 }, fault: { kind: "delay", ms: 300 } },
    {
      match: { tool: "echo", nth: 2 },
      fault: { kind: "error", code: -32010, message: "second echo refused" },
    },
    {
      match: { tool: "echo", nth: [5, 7] },
      fault: { kind: "error", code: -32011, message: "odd roll refused" },
    },
    { match: { tool: "get-sum" }, fault: { kind: "error", code: -32603, message: "sum failed" } },
    { match: { prompt: "simple-prompt" }, fault: { kind: "timeout" } },
    {
      match: { uri: "demo://resource/static/document/*" },
      fault: { kind: "error", code: -32002, message: "resource gone" },
    },
    {
      name: "aimed at nothing",
      match: { tool: "no-such-tool" },
      fault: { kind: "error", code: 1, message: "x" },
    },
  ],
});
const malformed = startCase("malformed", {
  faults: [
    { match: { tool: "echo", nth: 1 }, fault: { kind: "malformed", strategy: "truncate" } },
    { match: { tool: "echo", nth: 2 }, fault: { kind: "malformed", strategy: "not_json" } },
    { match: { tool: "echo", nth: 3 }, fault: { kind: "malformed", strategy: "wrong_id" } },
  ],
});
const disconnect = startCase("disconnect", [{
  match: { tool: "get-sum" },
  fault: { kind: "disconnect" },
}]);
const flaky = (seed: number) => ({
  seed,
  faults: [{
    name: "flaky echo",
    match: { tool: "echo", probability: 0.5 },
    fault: { kind: "error", code: -32099, message: "flaky" },
  }],
});
const seeded = [
  startCase("seed-7-file", flaky(7)),
  startCase("seed-7-file-again", flaky(7)),
  startCase("seed-7-flag", flaky(99), ["--seed", "7"]),
  startCase("seed-8-flag", flaky(99), ["--seed", "8"]),
];
const python = startCase("python", {
  faults: [
    {
      target: { method: "tools/call", nth: 1 },
      type: "error",
      params: { code: -32000, message: "rate limited" },
    },
    { target: { method: "tools/list" }, type: "delay", params: { ms: 250 } },
    { target: { method: "prompts/get" }, type: "malformed", params: { strategy: "not_json" } },
    { target: { method: "resources/read" }, type: "timeout" },
    { target: { method: "ping" }, type: "http_status", params: { status: 503 } },
    { target: { method: "ping" }, type: "sse_drop", params: { after_events: 1 } },
  ],
});

function recordedText(live: ClientRun, label: string): string | undefined {
  return live.byLabel.get(label)?.text;
}

/** Asserts the call got its recorded answer. */
function assertRecorded(live: ClientRun, outcome: Outcome | undefined, label: string) {
  assert.ok(outcome, `no outcome for ${label}`);
  assert.equal(outcome.outcome, "ok", `${label}: ${JSON.stringify(outcome)}`);
  assert.equal(outcome.text, recordedText(live, label), label);
}

function errorSeen(outcome: Outcome | undefined) {
  return outcome &&
    { outcome: outcome.outcome, code: outcome.code, message: outcome.message, data: outcome.data };
}

test("the recording itself answered every call", async () => {
  const live = await recording;
  for (const call of live.calls) assert.equal(call.outcome, "ok", JSON.stringify(call));
  assert.equal(live.byLabel.get("sum")?.text, "The sum of 2 and 40 is 42.");
});

test("targets by method, tool, prompt, URI and nth: each fault hits its call and nothing else", async () => {
  const { live, client, report } = await matrix;
  const seen = client.byLabel;
  // by method: an error the client sees with its code, message and data
  assert.deepEqual(errorSeen(seen.get("list")), {
    outcome: "error",
    code: -32000,
    message: "MCP error -32000: rate limited",
    data: { retryAfter: 5 },
  });
  // delay: the answer still arrives (no timing asserted)
  assertRecorded(live, seen.get("echo-1"), "echo-1");
  // nth 2 of echo only
  assert.deepEqual(errorSeen(seen.get("echo-2")), {
    outcome: "error",
    code: -32010,
    message: "MCP error -32010: second echo refused",
    data: undefined,
  });
  assertRecorded(live, seen.get("echo-3"), "echo-3");
  // nth [5, 7] of echo: roll-2 and roll-4 (echo calls 5 and 7), the other rolls untouched
  for (const label of ROLLS) {
    if (label === "roll-2" || label === "roll-4") {
      assert.equal(seen.get(label)?.code, -32011, label);
    } else assertRecorded(live, seen.get(label), label);
  }
  // by tool name
  assert.deepEqual(errorSeen(seen.get("sum")), {
    outcome: "error",
    code: -32603,
    message: "MCP error -32603: sum failed",
    data: undefined,
  });
  // by prompt name: timeout means no answer, ever; the SDK's own timeout fires
  assert.equal(seen.get("prompt")?.outcome, "timeout");
  assert.equal(seen.get("prompt")?.code, -32001);
  assert.match(seen.get("prompt")?.message ?? "", /Request timed out/);
  // by resource URI (a wildcard pattern)
  assert.equal(seen.get("read")?.code, -32002);
  assert.equal(seen.get("read")?.message, "MCP error -32002: resource gone");
  assertRecorded(live, seen.get("ping"), "ping");
  assert.equal(client.closedByServer, false);

  // The entry aimed at a tool the client never calls is reported, and only it.
  assert.ok(report, "replay wrote no --report file");
  assert.deepEqual(report.misses, []);
  assert.equal(report.unfiredFaults.length, 1, JSON.stringify(report.unfiredFaults));
  assert.match(report.unfiredFaults[0], /#8 "aimed at nothing"/);
  assert.match(report.unfiredFaults[0], /no-such-tool/);
  assert.match(client.serverStderr, /never fired/);
});

test("malformed truncate / not_json / wrong_id: the SDK drops the line (onerror) and the request times out", async () => {
  const { live, client, report } = await malformed;
  const seen = client.byLabel;
  for (const label of ["echo-1", "echo-2", "echo-3"]) {
    assert.equal(
      seen.get(label)?.outcome,
      "timeout",
      `${label}: ${JSON.stringify(seen.get(label))}`,
    );
    assert.equal(seen.get(label)?.code, -32001);
  }
  // What the SDK reported on Client.onerror for each broken line.
  assert.match(
    seen.get("echo-1")?.sdkErrors?.join("\n") ?? "",
    /JSON/,
    "truncate: a JSON parse error",
  );
  assert.match(
    seen.get("echo-2")?.sdkErrors?.join("\n") ?? "",
    /JSON/,
    "not_json: a JSON parse error",
  );
  assert.match(
    seen.get("echo-3")?.sdkErrors?.join("\n") ?? "",
    /unknown message ID/,
    "wrong_id: an answer for an id it never sent",
  );
  // The session survives a broken line: later calls get their recorded answers.
  for (const label of ["list", "sum", "prompt", "read", "ping", ...ROLLS]) {
    assertRecorded(live, seen.get(label), label);
  }
  assert.deepEqual(report.unfiredFaults, []);
});

test("disconnect: the replay exits, the client sees the connection close, and later calls fail closed", async () => {
  const { live, client, report } = await disconnect;
  const seen = client.byLabel;
  for (const label of ["list", "echo-1", "echo-2", "echo-3"]) {
    assertRecorded(live, seen.get(label), label);
  }
  assert.deepEqual(errorSeen(seen.get("sum")), {
    outcome: "closed",
    code: -32000,
    message: "MCP error -32000: Connection closed",
    data: undefined,
  });
  for (const label of ["prompt", "read", "ping", ...ROLLS]) {
    assert.equal(
      seen.get(label)?.outcome,
      "closed",
      `${label}: ${JSON.stringify(seen.get(label))}`,
    );
  }
  assert.equal(client.closedByServer, true);
  // The replay still finished its report on the way out.
  assert.ok(report, "replay wrote no --report file after the disconnect");
  assert.deepEqual(report.unfiredFaults, []);
});

test("probability with a seed: the same seed fails the same calls, from the file or --seed", async () => {
  const [fileSeed, again, flagSeed, otherSeed] = await Promise.all(seeded);
  const echoLabels = ["echo-1", "echo-2", "echo-3", ...ROLLS];
  const pattern = (run: Awaited<typeof seeded[number]>) =>
    echoLabels.map((label) => {
      const outcome = run.client.byLabel.get(label);
      if (outcome?.outcome === "ok") {
        assert.equal(outcome.text, recordedText(run.live, label));
        return "ok";
      }
      assert.equal(outcome?.code, -32099, `${label}: ${JSON.stringify(outcome)}`);
      return "x";
    }).join("");
  const seven = pattern(fileSeed);
  assert.match(seven, /ok/, "seed 7 fails some calls and spares others");
  assert.match(seven, /x/, "seed 7 fails some calls and spares others");
  assert.equal(pattern(again), seven, "the same seed and overlay fail the same calls");
  assert.equal(pattern(flagSeed), seven, "--seed 7 overrides the file's seed 99");
  assert.notEqual(pattern(otherSeed), seven, "seed 8 draws differently");
  // Calls the entry does not aim at are never rolled.
  for (const run of [fileSeed, flagSeed, otherSeed]) {
    assertRecorded(run.live, run.client.byLabel.get("sum"), "sum");
  }
});

test("an overlay in the Python mcp-cassette's format loads and fires; HTTP-only kinds are ignored on stdio", async () => {
  const { live, client, report } = await python;
  const seen = client.byLabel;
  assert.equal(seen.get("echo-1")?.code, -32000, "target.nth 1 of tools/call");
  assert.equal(seen.get("echo-1")?.message, "MCP error -32000: rate limited");
  assertRecorded(live, seen.get("echo-2"), "echo-2");
  assertRecorded(live, seen.get("list"), "list"); // delayed, still answered
  assert.equal(seen.get("prompt")?.outcome, "timeout", "malformed not_json");
  assert.match(seen.get("prompt")?.sdkErrors?.join("\n") ?? "", /JSON/);
  assert.equal(seen.get("read")?.outcome, "timeout");
  // http_status and sse_drop (Python spellings) parse, fire, and mean nothing on stdio.
  assertRecorded(live, seen.get("ping"), "ping");
  assert.match(client.serverStderr, /fault http-status has no meaning on stdio; ignored/);
  assert.match(client.serverStderr, /fault sse-drop has no meaning on stdio; ignored/);
  assert.deepEqual(report.unfiredFaults, []);
});
