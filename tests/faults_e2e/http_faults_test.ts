/**
 * The HTTP-only fault kinds, end to end: server-everything over Streamable
 * HTTP is recorded through `record --url` by the SDK v1 client, then served by
 * `replay --listen --faults FILE`. The SDK client must see each http-status
 * as the status itself (its StreamableHTTPError carries it as `code`); a raw
 * client checks the default headers and that an sse-drop stream ends after
 * exactly N events, without the answer.
 */
import { before, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { CLI, tempDir } from "../helpers.ts";
import type { Background } from "../http/http_helpers.ts";
import { startBackground, startEverythingHttp, URL_LINE } from "../http/http_helpers.ts";
import type { Call, ClientRun } from "./_shared.ts";
import { runClient, writeFile } from "./_shared.ts";

const dir = tempDir("mcp-cassette-http-faults-");
const cassette = path.join(dir, "everything-http.cassette.jsonl");
const LONG = { name: "trigger-long-running-operation", arguments: { duration: 0.3, steps: 3 } };

const CALLS: Call[] = [
  { label: "list", op: "tools/list" },
  { label: "echo", op: "tools/call", name: "echo", arguments: { message: "one" } },
  { label: "sum", op: "tools/call", name: "get-sum", arguments: { a: 2, b: 40 } },
  { label: "prompt", op: "prompts/get", name: "simple-prompt" },
  { label: "long", op: "tools/call", ...LONG, progress: true },
  { label: "ping", op: "ping" },
];

const OVERLAY = [
  { match: { method: "tools/list" }, fault: { kind: "http-status", status: 401 } },
  { match: { tool: "echo" }, fault: { kind: "http-status", status: 429 } },
  {
    match: { tool: "get-sum" },
    fault: { kind: "http-status", status: 503, body: "down for maintenance" },
  },
  { match: { prompt: "simple-prompt" }, fault: { kind: "http-status", status: 500 } },
  // Two events: the recorded priming event (id, no data) and the first progress notification.
  { match: { tool: LONG.name }, fault: { kind: "sse-drop", afterEvents: 2 } },
  { match: { method: "ping" }, fault: { kind: "disconnect" } },
];

let live: ClientRun;

before(async () => {
  const server = await startEverythingHttp();
  let recorder: Background | undefined;
  try {
    recorder = await startBackground(
      [...CLI, "record", "-o", cassette, "--url", server.url],
      URL_LINE,
    );
    live = await runClient(CALLS, { url: recorder.found });
  } finally {
    await recorder?.stop();
    await server.stop();
  }
});

/** A replay listening on a free port with the overlay; stopped (and its report read) by `stop`. */
async function startReplay(name: string) {
  const faults = writeFile(dir, `${name}.faults.json`, OVERLAY);
  const reportFile = path.join(dir, `${name}.report.json`);
  const replay = await startBackground(
    [
      ...CLI,
      "replay",
      cassette,
      "--listen",
      "127.0.0.1:0",
      "--faults",
      faults,
      "--report",
      reportFile,
    ],
    URL_LINE,
  );
  return {
    url: replay.found,
    stop: async () => {
      await replay.stop();
      return JSON.parse(readFileSync(reportFile, "utf8"));
    },
  };
}

test("the HTTP recording answered every call", () => {
  for (const call of live.calls) assert.equal(call.outcome, "ok", JSON.stringify(call));
  assert.equal(live.byLabel.get("long")?.progress, 3);
});

test("SDK client over replay --listen: http-status 401/429/503/500 arrive as the status; sse-drop and disconnect", async () => {
  const replay = await startReplay("sdk");
  let client: ClientRun;
  try {
    client = await runClient(CALLS, { url: replay.url }, { timeoutMs: 2000 });
  } finally {
    await replay.stop();
  }
  const seen = client.byLabel;
  for (
    const [label, status] of [["list", 401], ["echo", 429], ["sum", 503], ["prompt", 500]] as const
  ) {
    assert.equal(seen.get(label)?.outcome, "error", `${label}: ${JSON.stringify(seen.get(label))}`);
    assert.equal(seen.get(label)?.code, status, label);
    assert.match(
      seen.get(label)?.message ?? "",
      /^Streamable HTTP error: Error POSTing to endpoint: /,
    );
  }
  assert.equal(
    seen.get("sum")?.message,
    "Streamable HTTP error: Error POSTing to endpoint: down for maintenance",
  );
  // sse-drop: the stream ended after the first progress notification; the SDK
  // resumed it with GET and Last-Event-ID and got the rest, answer included.
  const long = seen.get("long");
  assert.equal(long?.outcome, "ok", JSON.stringify(long));
  assert.equal(long?.text, live.byLabel.get("long")?.text);
  assert.ok((long?.progress ?? 0) >= 1, JSON.stringify(long));
  // disconnect: the POST is dropped without a response; the SDK's fetch fails.
  const ping = seen.get("ping");
  assert.ok(ping && ping.outcome !== "ok", JSON.stringify(ping));
});

test("raw HTTP: the default Retry-After / WWW-Authenticate headers, the body, and an SSE stream cut after exactly 2 events", async () => {
  const replay = await startReplay("raw");
  try {
    const session = await rawSession(replay.url);
    const list = await session.post({ jsonrpc: "2.0", id: 1, method: "tools/list" });
    assert.equal(list.status, 401);
    assert.equal(list.headers.get("www-authenticate"), "Bearer");
    await list.body?.cancel();
    const echo = await session.post({
      jsonrpc: "2.0",
      id: 2,
      method: "tools/call",
      params: { name: "echo", arguments: { message: "one" } },
    });
    assert.equal(echo.status, 429);
    assert.equal(echo.headers.get("retry-after"), "1");
    await echo.body?.cancel();
    const sum = await session.post({
      jsonrpc: "2.0",
      id: 3,
      method: "tools/call",
      params: { name: "get-sum", arguments: { a: 2, b: 40 } },
    });
    assert.equal(sum.status, 503);
    assert.equal(sum.headers.get("retry-after"), "1");
    assert.equal(await sum.text(), "down for maintenance");

    const long = await session.post({
      jsonrpc: "2.0",
      id: 5,
      method: "tools/call",
      params: { ...LONG, _meta: { progressToken: 5 } },
    });
    assert.equal(long.status, 200);
    assert.equal(long.headers.get("content-type"), "text/event-stream");
    const events = (await long.text()).split("\n\n").filter((block) => block.trim() !== "");
    assert.equal(events.length, 2, JSON.stringify(events));
    assert.match(events[1], /notifications\/progress/);
    assert.ok(!events.some((event) => event.includes('"result"')), "the answer was not sent");
  } finally {
    const report = await replay.stop();
    assert.deepEqual(report.misses, []);
  }
});

test("after an sse-drop a client resumes with GET and Last-Event-ID and gets the rest of the stream, answer included", async () => {
  const replay = await startReplay("resume");
  try {
    const session = await rawSession(replay.url);
    const long = await session.post({
      jsonrpc: "2.0",
      id: 5,
      method: "tools/call",
      params: { ...LONG, _meta: { progressToken: 5 } },
    });
    const cut = (await long.text()).split("\n\n").filter((block) => block.trim() !== "");
    assert.equal(cut.length, 2, JSON.stringify(cut));
    const lastId = /^id: ?(.*)$/m.exec(cut[1])?.[1];
    assert.ok(lastId, `the last event before the cut has an id: ${cut[1]}`);
    const resumed = await fetch(replay.url, {
      headers: { ...session.headers, accept: "text/event-stream", "last-event-id": lastId },
    });
    assert.equal(resumed.status, 200);
    const rest = await resumed.text();
    assert.equal((rest.match(/notifications\/progress/g) ?? []).length, 2, rest);
    assert.match(rest, /"result":\{"content"/, rest);
    assert.match(rest, /"id":5/);
  } finally {
    await replay.stop();
  }
});

/** A Streamable HTTP session opened by hand (initialize + initialized), as the recorded client did. */
async function rawSession(url: string) {
  const headers: Record<string, string> = {
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
    "mcp-protocol-version": "2025-11-25",
  };
  const init = await fetch(url, {
    method: "POST",
    headers,
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 0,
      method: "initialize",
      params: {
        protocolVersion: "2025-11-25",
        capabilities: {},
        clientInfo: { name: "fault-client", version: "1.0.0" },
      },
    }),
  });
  assert.equal(init.status, 200);
  await init.text();
  const sessionId = init.headers.get("mcp-session-id");
  if (sessionId) headers["mcp-session-id"] = sessionId;
  const post = (message: unknown) =>
    fetch(url, { method: "POST", headers, body: JSON.stringify(message) });
  const initialized = await post({ jsonrpc: "2.0", method: "notifications/initialized" });
  await initialized.text();
  return { post, headers };
}
