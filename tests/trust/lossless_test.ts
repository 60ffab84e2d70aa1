/**
 * Frames are lossless: what the client reads from the replay is byte for
 * byte what it read from the live server through `record`, modulo the id.
 * The server is ours, in Python without an SDK, so its frames have Python's
 * spacing, a float written 9.0 and a 20-digit integer that a JavaScript
 * number cannot hold.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { CLI, ROOT, run, tempDir } from "../helpers.ts";
import { startBackground, startHttpRecorder, URL_LINE } from "../http/http_helpers.ts";

const SERVER = ["python3", path.join(ROOT, "tests/fixtures/trust/weather_server.py")];

const initialize = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: {
    protocolVersion: "2025-06-18",
    capabilities: {},
    clientInfo: { name: "bytes", version: "1" },
  },
};

function weather(id: number | string, city: string, extra: Record<string, unknown> = {}) {
  return {
    jsonrpc: "2.0",
    id,
    method: "tools/call",
    params: { name: "weather", arguments: { city, ...extra } },
  };
}

function lines(...messages: unknown[]): string {
  return messages.map((message) => JSON.stringify(message)).join("\n") + "\n";
}

test("stdio: the replay sends the server's own bytes (Python spacing, 9.0, a 20-digit integer)", async (t) => {
  const dir = tempDir();
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const cassette = path.join(dir, "weather.cassette.jsonl");
  const input = lines(
    initialize,
    { jsonrpc: "2.0", method: "notifications/initialized" },
    weather(2, "Lisbon"),
  );
  const live = await run([...CLI, "record", "-o", cassette, "--", ...SERVER], { input });
  assert.equal(live.code, 0, live.stderr);
  assert.match(live.stdout, /"celsius": 9\.0, "station": 12345678901234567890/);
  const replayed = await run([...CLI, "replay", cassette], { input });
  assert.equal(replayed.code, 0, replayed.stderr);
  assert.equal(replayed.stdout, live.stdout, "the replay's bytes are the live server's");
  // Another id: only the id differs.
  const other = await run([...CLI, "replay", cassette], {
    input: lines(initialize, weather("call-7", "Lisbon")),
  });
  const answer = other.stdout.trim().split("\n")[1];
  const liveAnswer = live.stdout.trim().split("\n")[1];
  assert.equal(answer, liveAnswer.replace('"id": 2', '"id": "call-7"'));
});

test("stdio: a redacted value the answer echoes from its request comes back live: the answer is byte for byte the live one", async (t) => {
  const dir = tempDir();
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const cassette = path.join(dir, "redacted.cassette.jsonl");
  // An e-mail address in the arguments is echoed back in the answer's text and structured content.
  const input = lines(initialize, weather(2, "ana@example.com"));
  const live = await run([...CLI, "record", "-o", cassette, "--", ...SERVER], { input });
  assert.equal(live.code, 0, live.stderr);
  const file = readFileSync(cassette, "utf8");
  assert.ok(!file.includes("ana@example.com"), "the address never reaches the disk");
  assert.match(file, /"celsius": 9\.0, "station": 12345678901234567890/);
  assert.match(file, /\[REDACTED:email:[0-9a-f]{16}\]/);
  const replayed = await run([...CLI, "replay", cassette], { input });
  assert.equal(replayed.code, 0, replayed.stderr);
  const [liveLine, replayLine] = [live.stdout, replayed.stdout].map((text) =>
    text.trim().split("\n")[1]
  );
  // The placeholders stood for the request's own address: the live one goes back in.
  assert.equal(replayLine, liveLine);
  assert.match(replayLine, /ana@example\.com/);
});

test("Streamable HTTP: the replay's JSON body is the server's own text", async (t) => {
  const dir = tempDir();
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const cassette = path.join(dir, "http.cassette.jsonl");
  const server = await startBackground([...SERVER, "--http", "0"], /listening on (\d+)/);
  t.after(() => server.stop("SIGKILL"));
  const upstream = `http://127.0.0.1:${server.found}/mcp`;
  const recorder = await startHttpRecorder(upstream, cassette);
  const liveBodies = await session(recorder.found);
  await recorder.stop();
  assert.match(liveBodies[1], /"celsius": 9\.0, "station": 12345678901234567890/);
  const replay = await startBackground(
    [...CLI, "replay", cassette, "--listen", "127.0.0.1:0"],
    URL_LINE,
  );
  t.after(() => replay.stop());
  const replayBodies = await session(replay.found);
  assert.deepEqual(replayBodies, liveBodies);
});

/** Initialize, then one call; the raw body of each answer. */
async function session(url: string): Promise<string[]> {
  const bodies: string[] = [];
  for (const message of [initialize, weather(2, "Lisbon")]) {
    const response = await fetch(url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": "2025-06-18",
      },
      body: JSON.stringify(message),
    });
    bodies.push(await response.text());
  }
  return bodies;
}

test("Streamable HTTP over SSE: the replay's data lines are the server's own text", async (t) => {
  const dir = tempDir();
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const cassette = path.join(dir, "sse.cassette.jsonl");
  const server = await startBackground([...SERVER, "--http", "0", "--sse"], /listening on (\d+)/);
  t.after(() => server.stop("SIGKILL"));
  const upstream = `http://127.0.0.1:${server.found}/mcp`;
  const recorder = await startHttpRecorder(upstream, cassette);
  const liveBodies = await session(recorder.found);
  await recorder.stop();
  assert.match(
    liveBodies[1],
    /^event: message\ndata: .*"celsius": 9\.0, "station": 12345678901234567890/,
  );
  const replay = await startBackground(
    [...CLI, "replay", cassette, "--listen", "127.0.0.1:0"],
    URL_LINE,
  );
  t.after(() => replay.stop());
  const replayBodies = await session(replay.found);
  const dataOf = (body: string) => body.split("\n").filter((line) => line.startsWith("data:"));
  assert.deepEqual(replayBodies.map(dataOf), liveBodies.map(dataOf));
});
