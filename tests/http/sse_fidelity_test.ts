/**
 * SSE fidelity: the recorder's incremental event reader yields the same
 * events at every read size, and a replayed multi-event stream reaches a raw
 * fetch reader as separate writes (with recorded pacing), carrying the
 * recorded ids, retry value and priming event.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { parseSseText } from "../../src/framing/sse.ts";
import { SseSplitter } from "../../src/http/sse_splitter.ts";
import { CLI, tempDir } from "../helpers.ts";
import { startBackground, URL_LINE } from "./http_helpers.ts";

const STREAM = "\uFEFFid: e0\r\nretry: 1500\r\ndata:\r\n\r\n" +
  ": keep-alive\n\n" +
  'event: message\nid: e1\ndata: {"jsonrpc":"2.0",\n data: "method":"x"}\n\n' +
  "id: e2\rdata: cr only\r\r" +
  "data: first\ndata: second\n\n" +
  "data: é ünïcode ✓\r\n\r\n" +
  "data: never dispatched";

test("the recorder's SSE reader yields the same events at every read size", () => {
  const bytes = new TextEncoder().encode(STREAM);
  const expected = parseSseText(STREAM);
  assert.equal(expected.length, 5);
  for (let size = 1; size <= bytes.length; size++) {
    const splitter = new SseSplitter();
    const events = [];
    for (let at = 0; at < bytes.length; at += size) {
      events.push(...splitter.push(bytes.subarray(at, at + size)));
    }
    events.push(...splitter.end());
    assert.deepEqual(events, expected, `read size ${size}`);
  }
});

function cassette(): string {
  const sse = (id: string) => ({ stream: "post", id });
  const entries = [
    {
      format: "mcp-cassette",
      version: 1,
      recorder: "test",
      created: "2026-01-01T00:00:00Z",
      transport: "http",
      era: "legacy",
      protocolVersion: "2025-11-25",
      server: { url: "http://127.0.0.1:9/mcp" },
    },
    { type: "http-request", t: 0, x: 1, method: "POST", path: "/mcp", headers: {} },
    {
      type: "message",
      t: 1,
      x: 1,
      dir: "c2s",
      msg: {
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: {
          protocolVersion: "2025-11-25",
          capabilities: {},
          clientInfo: { name: "t", version: "1" },
        },
      },
    },
    { type: "http-response", t: 2, x: 1, status: 200, headers: {}, body: "json" },
    {
      type: "message",
      t: 3,
      x: 1,
      dir: "s2c",
      msg: {
        jsonrpc: "2.0",
        id: 1,
        result: {
          protocolVersion: "2025-11-25",
          capabilities: { tools: {} },
          serverInfo: { name: "s", version: "1" },
        },
      },
    },
    { type: "http-end", t: 3, x: 1, reason: "complete" },
    { type: "http-request", t: 10, x: 2, method: "POST", path: "/mcp", headers: {} },
    {
      type: "message",
      t: 11,
      x: 2,
      dir: "c2s",
      msg: {
        jsonrpc: "2.0",
        id: 2,
        method: "tools/call",
        params: { name: "slow", arguments: {}, _meta: { progressToken: "p" } },
      },
    },
    { type: "http-response", t: 12, x: 2, status: 200, headers: {}, body: "sse" },
    { type: "sse-event", t: 13, x: 2, sse: { ...sse("e0"), retry: 1500 }, data: "" },
    {
      type: "message",
      t: 120,
      x: 2,
      dir: "s2c",
      sse: { ...sse("e1"), event: "message" },
      msg: {
        jsonrpc: "2.0",
        method: "notifications/progress",
        params: { progressToken: "p", progress: 1, total: 2 },
      },
    },
    {
      type: "message",
      t: 240,
      x: 2,
      dir: "s2c",
      sse: { ...sse("e2"), event: "message" },
      msg: {
        jsonrpc: "2.0",
        method: "notifications/progress",
        params: { progressToken: "p", progress: 2, total: 2 },
      },
    },
    {
      type: "message",
      t: 360,
      x: 2,
      dir: "s2c",
      sse: { ...sse("e3"), event: "message" },
      msg: { jsonrpc: "2.0", id: 2, result: { content: [{ type: "text", text: "done" }] } },
    },
    { type: "http-end", t: 361, x: 2, reason: "complete" },
  ];
  return entries.map((entry) => JSON.stringify(entry)).join("\n") + "\n";
}

test("a replayed SSE stream arrives as separate events with the recorded ids, retry and priming event", async () => {
  const file = path.join(tempDir(), "paced.cassette.jsonl");
  writeFileSync(file, cassette());
  const replay = await startBackground([
    ...CLI,
    "replay",
    file,
    "--listen",
    "127.0.0.1:0",
    "--pace",
    "recorded",
  ], URL_LINE);
  try {
    const headers = {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
    };
    const init = await fetch(replay.found, {
      method: "POST",
      headers,
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: {
          protocolVersion: "2025-11-25",
          capabilities: {},
          clientInfo: { name: "t", version: "1" },
        },
      }),
    });
    assert.equal(init.status, 200);
    assert.equal(init.headers.get("content-type"), "application/json");
    assert.equal((await init.json()).result.serverInfo.name, "s");
    const call = await fetch(replay.found, {
      method: "POST",
      headers: { ...headers, "mcp-protocol-version": "2025-11-25" },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 9,
        method: "tools/call",
        params: { name: "slow", arguments: {}, _meta: { progressToken: "live" } },
      }),
    });
    assert.equal(call.headers.get("content-type"), "text/event-stream");
    const reader = call.body!.getReader();
    let reads = 0;
    let text = "";
    const decoder = new TextDecoder();
    while (true) {
      const { done, value } = await reader.read();
      if (done) break;
      reads++;
      text += decoder.decode(value, { stream: true });
    }
    const events = parseSseText(text);
    assert.ok(reads >= 2, `the stream came in ${reads} read(s)`);
    assert.deepEqual(events.map((event) => event.id), ["e0", "e1", "e2", "e3"]);
    assert.equal(events[0].retry, 1500);
    assert.equal(events[0].data, "");
    assert.equal(JSON.parse(events[1].data).params.progressToken, "live");
    const answer = JSON.parse(events[3].data);
    assert.equal(answer.id, 9);
    assert.equal(answer.result.content[0].text, "done");
    // Refusals with the spec's codes; the server keeps serving afterwards.
    const wrongAccept = await fetch(replay.found, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "text/html" },
      body: "{}",
    });
    assert.equal(wrongAccept.status, 406);
    const wrongType = await fetch(replay.found, {
      method: "POST",
      headers: { ...headers, "content-type": "text/plain" },
      body: "{}",
    });
    assert.equal(wrongType.status, 415);
    const notJson = await fetch(replay.found, { method: "POST", headers, body: "{nope" });
    assert.equal(notJson.status, 400);
    assert.equal((await notJson.json()).error.code, -32700);
    const huge = await fetch(replay.found, {
      method: "POST",
      headers,
      body: "x".repeat(5 * 1024 * 1024),
    });
    assert.equal(huge.status, 413);
    const badOrigin = await fetch(replay.found, {
      method: "POST",
      headers: { ...headers, origin: "https://evil.example" },
      body: "{}",
    });
    assert.equal(badOrigin.status, 403);
    const badVersion = await fetch(replay.found, {
      method: "POST",
      headers: { ...headers, "mcp-protocol-version": "1999-01-01" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 3, method: "ping" }),
    });
    assert.equal(badVersion.status, 400);
  } finally {
    await replay.stop();
  }
});
