/**
 * Bounds over HTTP: `replay --listen --max-streams 64` keeps at most 64 SSE
 * streams open (the 65th gets 503 "Too many open streams" with the request's
 * id, JSON answers are still served, and a closed stream frees its place;
 * the default cap is 1024); `record --url`
 * refuses a body over 4 MiB with 413 and keeps serving. (The replay's 413
 * and both 431s are in security_test.ts and tests/http/sse_fidelity_test.ts.)
 *
 * Idle connections are closed after the idle timeout, on loopback and on an
 * address reachable from other machines: one that never sends a request, one
 * that stops in the middle of its headers, and a keep-alive one between
 * requests, while a quiet SSE stream stays open.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import net from "node:net";
import path from "node:path";
import { loadCassette } from "../../src/cassette/reader.ts";
import { ReplayEngine } from "../../src/replay/engine.ts";
import { serveHttp } from "../../src/replay/http.ts";
import { CLI, tempDir } from "../helpers.ts";
import { startBackground, URL_LINE } from "../http/http_helpers.ts";
import { figure } from "./_helpers.ts";
import {
  callMessage,
  openSession,
  post,
  postHeaders,
  startHttpFixture,
  startHttpRecorder,
} from "./_http.ts";

const CAP = 64;

/** A recording with a call the upstream never answered (the client gave up on it). */
async function recordHang(): Promise<string> {
  const cassette = path.join(tempDir("mcp-cassette-http-bounds-"), "hang.cassette.jsonl");
  const fixture = await startHttpFixture();
  const recorder = await startHttpRecorder(fixture.url, cassette);
  try {
    const sessionId = await openSession(recorder.url);
    assert.equal(
      (await post(recorder.url, callMessage(1, "echo", { a: 1 }), { sessionId })).status,
      200,
    );
    const abort = new AbortController();
    const hung = post(recorder.url, callMessage(2, "hang"), { sessionId, signal: abort.signal })
      .catch(() => undefined);
    await new Promise((resolve) => setTimeout(resolve, 200));
    abort.abort();
    await hung;
    assert.equal(await recorder.stop(), 0);
  } finally {
    await recorder.stop("SIGKILL");
    await fixture.stop("SIGTERM");
  }
  return cassette;
}

test(`HTTP replay: at most ${CAP} SSE streams open; the next gets 503, JSON is still served, a closed stream frees a place`, async () => {
  const cassette = await recordHang();
  const replay = await startBackground([
    ...CLI,
    "replay",
    cassette,
    "--listen",
    "0",
    "--max-streams",
    String(CAP),
  ], URL_LINE);
  const aborts: AbortController[] = [];
  try {
    const url = replay.found;
    const sessionId = await openSession(url);
    // The unanswered call replays as a stream that stays open until the client leaves.
    const open = async (id: number) => {
      const abort = new AbortController();
      aborts.push(abort);
      const response = await fetch(url, {
        method: "POST",
        headers: postHeaders(sessionId),
        body: JSON.stringify(callMessage(id, "hang")),
        signal: abort.signal,
      });
      return { response, abort };
    };
    const streams = await Promise.all(Array.from({ length: CAP }, (_, i) => open(100 + i)));
    for (const { response } of streams) {
      assert.equal(response.status, 200);
      assert.match(response.headers.get("content-type") ?? "", /^text\/event-stream/);
    }
    const over = await open(999);
    assert.equal(over.response.status, 503);
    const refusal = await over.response.json();
    assert.equal(refusal.id, 999);
    assert.match(refusal.error.message, /Too many open streams/);
    // JSON answers take no stream.
    const json = await post(url, callMessage(1000, "echo", { a: 1 }), { sessionId });
    assert.equal(json.status, 200);
    assert.equal(json.messages[0]?.id, 1000);
    // One stream closed by its client frees one place.
    streams[0].abort.abort();
    let again = await open(1001);
    for (let i = 0; i < 50 && again.response.status === 503; i++) {
      await again.response.body?.cancel();
      await new Promise((resolve) => setTimeout(resolve, 20));
      again = await open(1001);
    }
    assert.equal(again.response.status, 200, "the place freed by the closed stream is available");
    const full = await open(1002);
    assert.equal(full.response.status, 503, "and only that one");
    await full.response.body?.cancel();
    figure("http-stream-cap", { cap: CAP, opened: CAP, refusedStatus: 503, freedAfterClose: true });
  } finally {
    for (const abort of aborts) abort.abort();
    await replay.stop("SIGTERM");
  }
});

test("HTTP record --url: a body over 4 MiB gets 413 and the recorder keeps serving", async () => {
  const fixture = await startHttpFixture();
  const cassette = path.join(tempDir("mcp-cassette-http-bounds-"), "big.cassette.jsonl");
  const recorder = await startHttpRecorder(fixture.url, cassette);
  try {
    const sessionId = await openSession(recorder.url);
    const big = JSON.stringify(callMessage(1, "echo", { pad: "x".repeat(5 * 1024 * 1024) }));
    const refused = await fetch(recorder.url, {
      method: "POST",
      headers: postHeaders(sessionId),
      body: big,
    });
    assert.equal(refused.status, 413);
    await refused.body?.cancel();
    const later = await post(recorder.url, callMessage(2, "echo", { after: "413" }), { sessionId });
    assert.equal(later.status, 200);
    assert.equal(later.messages[0]?.id, 2);
    assert.equal(await recorder.stop(), 0);
  } finally {
    await recorder.stop("SIGKILL");
    await fixture.stop("SIGTERM");
  }
});

/** Resolves with the milliseconds until the server closes this socket, or undefined after `limitMs`. */
function closedAfter(socket: net.Socket, limitMs: number): Promise<number | undefined> {
  const started = performance.now();
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(undefined), limitMs);
    socket.on("data", () => {});
    socket.on("error", () => {});
    socket.on("close", () => {
      clearTimeout(timer);
      resolve(performance.now() - started);
    });
  });
}

function connect(port: number): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, "127.0.0.1", () => resolve(socket));
    socket.once("error", reject);
  });
}

for (const listen of ["127.0.0.1:0", "0.0.0.0:0"]) {
  test(`HTTP replay on ${listen}: idle connections are closed, a quiet SSE stream is not`, async () => {
    await idleConnectionsClosed(listen);
  });
}

async function idleConnectionsClosed(listen: string) {
  const IDLE_MS = 800;
  const engine = new ReplayEngine(await loadCassette(await recordHang()));
  let stop!: () => void;
  const until = new Promise<void>((resolve) => (stop = resolve));
  const logged: string[] = [];
  let url = "";
  const listening = new Promise<void>((resolve) => {
    void serveHttp(engine, {
      listen,
      idleTimeoutMs: IDLE_MS,
      until,
      log: (line) => logged.push(line),
      onListening: (found) => {
        url = found;
        resolve();
      },
    });
  });
  await listening;
  const port = Number(new URL(url).port);
  const sockets: net.Socket[] = [];
  const stream = new AbortController();
  try {
    if (listen.startsWith("0.0.0.0")) {
      assert.ok(
        logged.some((line) => /reachable from other machines/.test(line)),
        "the exposure is announced",
      );
    }
    const silent = await connect(port);
    const partial = await connect(port);
    partial.write("POST /mcp HTTP/1.1\r\nHost: 127.0.0.1");
    const keptAlive = await connect(port);
    const body = JSON.stringify({
      jsonrpc: "2.0",
      id: 0,
      method: "initialize",
      params: {
        protocolVersion: "2025-11-25",
        capabilities: {},
        clientInfo: { name: "t", version: "1" },
      },
    });
    keptAlive.write(
      `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\n` +
        `Accept: application/json, text/event-stream\r\nContent-Length: ${
          Buffer.byteLength(body)
        }\r\n\r\n${body}`,
    );
    sockets.push(silent, partial, keptAlive);
    // A call the recording never answered replays as an SSE stream left open.
    const sessionId = await openSession(url);
    const quiet = await fetch(url, {
      method: "POST",
      headers: postHeaders(sessionId),
      body: JSON.stringify(callMessage(2, "hang")),
      signal: stream.signal,
    });
    assert.equal(quiet.status, 200);
    const quietReader = quiet.body!.getReader();
    let quietEnded = false;
    void (async () => {
      while (!(await quietReader.read().catch(() => ({ done: true }))).done);
      quietEnded = true;
    })();
    // A generous bound: without the idle timeout these would stay open for good.
    const limit = 30_000;
    const [silentMs, partialMs, keptAliveMs] = await Promise.all(
      [silent, partial, keptAlive].map((socket) => closedAfter(socket, limit)),
    );
    const closed = `closed after ${JSON.stringify({ silentMs, partialMs, keptAliveMs })} ms`;
    assert.ok(
      silentMs !== undefined,
      `a connection that never sent a request is closed: ${closed}`,
    );
    assert.ok(
      partialMs !== undefined,
      `a connection that stopped in the middle of its headers is closed: ${closed}`,
    );
    assert.ok(
      keptAliveMs !== undefined,
      `a keep-alive connection idle after its answer is closed: ${closed}`,
    );
    // The quiet stream is idle at least as long as they were, and twice the timeout more.
    const quietSince = performance.now();
    await new Promise((resolve) => setTimeout(resolve, IDLE_MS * 2));
    assert.equal(
      quietEnded,
      false,
      `a quiet SSE stream was closed within ${
        Math.round(performance.now() - quietSince)
      } ms of the idle connections (${closed})`,
    );
    figure("http-idle", {
      listen,
      idleTimeoutMs: IDLE_MS,
      silentMs: Math.round(silentMs),
      partialMs: Math.round(partialMs),
      keptAliveMs: Math.round(keptAliveMs),
      sseOpenAfterMs: Math.round(Math.max(silentMs, partialMs, keptAliveMs)) + IDLE_MS * 2,
    });
  } finally {
    stream.abort();
    for (const socket of sockets) socket.destroy();
    stop();
  }
}
