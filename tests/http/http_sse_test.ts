/**
 * The old HTTP+SSE transport (2024-11-05) with real parts: the official SDK
 * v1 client's `SSEClientTransport` drives server-everything in `sse` mode
 * through `record --url`, then drives `replay --listen` of that cassette,
 * which must serve the same transport (GET → stream opened by an `endpoint`
 * event, POST → 202, answers as `event: message` on the stream) with
 * identical results. Also: an upstream naming its POST URL absolutely gets
 * it rewritten to the proxy's origin.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { readFileSync } from "node:fs";
import path from "node:path";
import { assertSameSession, CLI, run, SDK_SESSION, tempDir } from "../helpers.ts";
import {
  cassetteLines,
  EVERYTHING_HTTP_SCRIPT,
  freePort,
  NODE,
  startBackground,
  URL_LINE,
} from "./http_helpers.ts";
import type { Background } from "./http_helpers.ts";

type Session = { results: Record<string, unknown>; asked: unknown[]; progress: unknown[] };

/** server-everything on the HTTP+SSE transport; resolves with its stream URL. */
async function startEverythingSse(): Promise<Background & { url: string }> {
  const port = await freePort();
  const server = await startBackground(
    [NODE, EVERYTHING_HTTP_SCRIPT, "sse"],
    /running on port (\d+)/i,
    {
      env: { PORT: String(port) },
    },
  );
  return { ...server, url: `http://127.0.0.1:${port}/sse` };
}

type Event = { event?: string; data: string };

/** Reads SSE events from a response body, `count` at a time; the stream stays open until `close()`. */
function eventReader(
  body: ReadableStream<Uint8Array>,
): { next: (count: number) => Promise<Event[]>; close: () => Promise<void> } {
  const reader = body.pipeThrough(new TextDecoderStream()).getReader();
  let text = "";
  const next = async (count: number) => {
    const events: Event[] = [];
    while (events.length < count) {
      let cut;
      while (events.length < count && (cut = text.indexOf("\n\n")) >= 0) {
        const lines = text.slice(0, cut).split("\n");
        text = text.slice(cut + 2);
        const data = lines.filter((l) => l.startsWith("data:")).map((l) => l.slice(5).trimStart())
          .join("\n");
        const type = lines.find((l) => l.startsWith("event:"))?.slice(6).trim();
        if (data !== "" || type) events.push({ ...(type ? { event: type } : {}), data });
      }
      if (events.length >= count) break;
      const { done, value } = await reader.read();
      if (done) break;
      text += value;
    }
    return events;
  };
  return { next, close: () => reader.cancel().catch(() => {}) };
}

async function recordAndReplay(
  scenario: string,
  recordFlags: string[] = [],
): Promise<{ live: Session; replayed: Session; cassette: string; replayLog: string }> {
  const cassette = path.join(tempDir(), `${scenario}.cassette.jsonl`);
  const upstream = await startEverythingSse();
  try {
    const recorder = await startBackground([
      ...CLI,
      "record",
      "-o",
      cassette,
      ...recordFlags,
      "--url",
      upstream.url,
    ], URL_LINE);
    assert.equal(new URL(recorder.found).pathname, "/sse");
    const live = await run([...SDK_SESSION, "--scenario", scenario, "--sse-url", recorder.found]);
    assert.equal(live.code, 0, live.stderr);
    assert.equal(await recorder.stop(), 0, recorder.output());
    const replay = await startBackground(
      [...CLI, "replay", cassette, "--listen", "127.0.0.1:0"],
      URL_LINE,
    );
    try {
      assert.equal(
        new URL(replay.found).pathname,
        "/sse",
        "replay offers the recorded stream path",
      );
      const replayed = await run([
        ...SDK_SESSION,
        "--scenario",
        scenario,
        "--sse-url",
        replay.found,
      ]);
      assert.equal(replayed.code, 0, replayed.stderr);
      await replay.stop();
      return {
        live: JSON.parse(live.stdout),
        replayed: JSON.parse(replayed.stdout),
        cassette,
        replayLog: replay.output(),
      };
    } finally {
      await replay.stop();
    }
  } finally {
    await upstream.stop();
  }
}

test("SSEClientTransport: identical results from record --url and replay --listen (server-everything sse, basic)", async () => {
  const { live, replayed, cassette } = await recordAndReplay("basic");
  assert.equal(
    (live.results.sum as { content: { text: string }[] }).content[0].text,
    "The sum of 2 and 40 is 42.",
  );
  assert.deepEqual(replayed, live);
  const lines = cassetteLines(readFileSync(cassette, "utf8"));
  assert.equal(lines[0].transport, "sse");
  assert.equal(lines[0].era, "legacy");
  const endpoint = lines.find((entry) =>
    entry.type === "sse-event" && (entry.sse as { event?: string }).event === "endpoint"
  );
  assert.ok(endpoint, "the endpoint event is recorded");
  assert.match(String(endpoint.data), /^\/message\?sessionId=/);
  const posts = lines.filter((entry) => entry.type === "http-response" && entry.status === 202);
  assert.ok(posts.length >= 10, "every POST was answered 202");
});

test("SSEClientTransport: sampling, elicitation, roots and progress on the one stream replay identically", async () => {
  const { live, replayed, replayLog, cassette } = await recordAndReplay("initiated", [
    "--no-detectors",
  ]);
  assert.equal(live.asked.length, 3, JSON.stringify(live.asked));
  assert.ok(live.progress.length >= 1);
  assertSameSession(replayed, live, cassette);
  // The server requests were asked by the request that made them, so the client's answers were awaited, not strays.
  assert.doesNotMatch(replayLog, /never asked/);
});

test("replay of an HTTP+SSE cassette speaks the transport on the wire: endpoint event, 202, event: message, sessions", async () => {
  const cassette = path.join(tempDir(), "wire.cassette.jsonl");
  const upstream = await startEverythingSse();
  try {
    const recorder = await startBackground([
      ...CLI,
      "record",
      "-o",
      cassette,
      "--url",
      upstream.url,
    ], URL_LINE);
    const live = await run([...SDK_SESSION, "--sse-url", recorder.found]);
    assert.equal(live.code, 0, live.stderr);
    await recorder.stop();
  } finally {
    await upstream.stop();
  }
  const replay = await startBackground(
    [...CLI, "replay", cassette, "--listen", "127.0.0.1:0"],
    URL_LINE,
  );
  try {
    const streamUrl = new URL(replay.found);
    const stream = await fetch(streamUrl, { headers: { accept: "text/event-stream" } });
    assert.equal(stream.status, 200);
    assert.equal(stream.headers.get("content-type"), "text/event-stream");
    const events = eventReader(stream.body!);
    const [endpointEvent] = await events.next(1);
    assert.equal(endpointEvent.event, "endpoint");
    const postUrl = new URL(endpointEvent.data, streamUrl);
    assert.equal(postUrl.origin, streamUrl.origin, "the POST URL is on the replay's origin");
    assert.ok(postUrl.searchParams.get("sessionId"), "with a session parameter");

    const post = (url: URL, body: unknown, type = "application/json") =>
      fetch(url, { method: "POST", headers: { "content-type": type }, body: JSON.stringify(body) });
    const init = {
      jsonrpc: "2.0",
      id: 0,
      method: "initialize",
      params: {
        protocolVersion: "2025-11-25",
        capabilities: {},
        clientInfo: { name: "e2e-client", version: "1.0.0" },
      },
    };
    const accepted = await post(postUrl, init);
    assert.equal(accepted.status, 202);
    await accepted.body?.cancel();
    const [answerEvent] = await events.next(1);
    assert.equal(answerEvent.event, "message", "answers arrive as event: message");
    const answer = JSON.parse(answerEvent.data);
    assert.equal(answer.id, 0);
    assert.equal(answer.result.serverInfo.name, "mcp-servers/everything");

    const unknown = new URL(postUrl);
    unknown.searchParams.set("sessionId", "no-such-session");
    const missing = await post(unknown, { jsonrpc: "2.0", method: "notifications/initialized" });
    assert.equal(missing.status, 404);
    await missing.body?.cancel();
    const noSession = new URL(postUrl.pathname, postUrl);
    const bad = await post(noSession, { jsonrpc: "2.0", method: "notifications/initialized" });
    assert.equal(bad.status, 400);
    await bad.body?.cancel();
    const wrongType = await post(postUrl, init, "text/plain");
    assert.equal(wrongType.status, 415);
    await wrongType.body?.cancel();
    // Closing the stream ends the session: its POST URL is gone.
    await events.close();
    await new Promise((resolve) => setTimeout(resolve, 100));
    const after = await post(postUrl, { jsonrpc: "2.0", method: "notifications/initialized" });
    assert.equal(after.status, 404);
    await after.body?.cancel();
  } finally {
    await replay.stop();
  }
});

test("the recorder rewrites an absolute endpoint URL naming the upstream to the proxy's origin", async () => {
  const upstream = createServer((req, res) => {
    if (req.method === "GET") {
      res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
      const { port } = upstream.address() as AddressInfo;
      res.write(`event: endpoint\ndata: http://127.0.0.1:${port}/messages?sessionId=abc\n\n`);
      return;
    }
    res.writeHead(202).end("Accepted");
  });
  await new Promise<void>((resolve) => upstream.listen(0, "127.0.0.1", resolve));
  const { port } = upstream.address() as AddressInfo;
  const cassette = path.join(tempDir(), "absolute.cassette.jsonl");
  const recorder = await startBackground([
    ...CLI,
    "record",
    "-o",
    cassette,
    "--url",
    `http://127.0.0.1:${port}/sse`,
  ], URL_LINE);
  try {
    const proxy = new URL(recorder.found);
    const response = await fetch(proxy, { headers: { accept: "text/event-stream" } });
    const events = eventReader(response.body!);
    const [endpoint] = await events.next(1);
    await events.close();
    assert.equal(endpoint.event, "endpoint");
    assert.equal(endpoint.data, `${proxy.origin}/messages?sessionId=abc`);
  } finally {
    await recorder.stop();
    upstream.closeAllConnections();
    await new Promise<void>((resolve) => upstream.close(() => resolve()));
  }
  const lines = cassetteLines(readFileSync(cassette, "utf8"));
  assert.equal(lines[0].transport, "sse");
  const recorded = lines.find((entry) => entry.type === "sse-event");
  assert.equal(
    recorded?.data,
    `http://127.0.0.1:${port}/messages?sessionId=abc`,
    "the cassette keeps what the upstream said",
  );
});
