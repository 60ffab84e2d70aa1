/**
 * How `replay --listen` reads a POSTed body (src/http/body.ts
 * `readJsonCapped`): with a Content-Length the body goes to
 * `request.json()`; a chunked one (no length) is read in chunks under the
 * cap. Both must answer the same message the same way, and refuse a body
 * that is not JSON with 400 and -32700.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { CLI, tempDir } from "../helpers.ts";
import { startBackground, URL_LINE } from "./http_helpers.ts";

const INITIALIZE = {
  jsonrpc: "2.0",
  id: 0,
  method: "initialize",
  params: {
    protocolVersion: "2025-06-18",
    capabilities: {},
    clientInfo: { name: "t", version: "1" },
  },
};
const RESULT = {
  protocolVersion: "2025-06-18",
  capabilities: { tools: {} },
  serverInfo: { name: "s", version: "1" },
};

/** A legacy-era recording of one session that initializes, twice over (one per POST below). */
function cassette(dir: string): string {
  const file = path.join(dir, "body.cassette.jsonl");
  const headers = {
    accept: "application/json, text/event-stream",
    "content-type": "application/json",
  };
  const lines: unknown[] = [{
    format: "mcp-cassette",
    version: 2,
    recorder: "mcp-cassette/0.1.0",
    created: "2026-12-01T00:00:00.000Z",
    transport: "http",
    era: "legacy",
    protocolVersion: "2025-06-18",
    server: { url: "http://127.0.0.1:1/mcp" },
  }];
  for (const n of [1, 2]) {
    const session = `http-${n}`;
    lines.push(
      { type: "http-request", t: n, session, x: n, method: "POST", path: "/mcp", headers },
      { type: "message", t: n, session, x: n, dir: "c2s", msg: INITIALIZE },
      { type: "session", t: n, session, event: "start", sessionId: `s-${n}` },
      {
        type: "http-response",
        session,
        x: n,
        t: n,
        status: 200,
        headers: { "content-type": "application/json", "mcp-session-id": `s-${n}` },
        body: "json",
      },
      {
        type: "message",
        t: n,
        session,
        x: n,
        dir: "s2c",
        msg: { jsonrpc: "2.0", id: 0, result: RESULT },
      },
      { type: "http-end", session, x: n, t: n, reason: "complete" },
    );
  }
  writeFileSync(file, lines.map((line) => JSON.stringify(line)).join("\n") + "\n");
  return file;
}

/** `text` as a body without a length: a stream, sent chunked. */
function chunked(text: string): ReadableStream<Uint8Array> {
  const bytes = new TextEncoder().encode(text);
  return new ReadableStream({
    start(controller) {
      controller.enqueue(bytes.slice(0, 5));
      controller.enqueue(bytes.slice(5));
      controller.close();
    },
  });
}

async function post(url: string, body: string | ReadableStream<Uint8Array>) {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
    body,
    duplex: "half",
  } as RequestInit);
  return { status: response.status, json: await response.json() };
}

test("replay --listen reads a body with a length and a chunked one alike, and refuses one that is not JSON", async () => {
  const replay = await startBackground(
    [...CLI, "replay", cassette(tempDir()), "--listen", "127.0.0.1:0"],
    URL_LINE,
  );
  try {
    const url = replay.found;
    const sized = await post(url, JSON.stringify(INITIALIZE));
    assert.equal(sized.status, 200);
    assert.deepEqual(sized.json.result, RESULT);
    const streamed = await post(url, chunked(JSON.stringify(INITIALIZE)));
    assert.equal(streamed.status, 200, JSON.stringify(streamed.json));
    assert.deepEqual(streamed.json.result, RESULT);
    for (const body of ["{nope", chunked("{nope")]) {
      const refused = await post(url, body);
      assert.equal(refused.status, 400, JSON.stringify(refused.json));
      assert.equal(refused.json.error.code, -32700);
    }
  } finally {
    await replay.stop();
  }
});
