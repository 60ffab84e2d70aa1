/**
 * HTTP hardening, with raw sockets and a real upstream of our own
 * (node:http): a chunked body trickling a byte at a time is cut with 408 on
 * the replay and on the recorder; a 100,000-deep JSON array goes through the
 * recorder to the upstream and back, and is recorded; the upstream URL's
 * query token is never printed, yet reaches the upstream; a batch over
 * MAX_BATCH_SIZE is refused with one error.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import http from "node:http";
import net from "node:net";
import { readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { loadCassette } from "../../src/cassette/reader.ts";
import { MAX_BATCH_SIZE } from "../../src/jsonrpc/messages.ts";
import { recordHttp } from "../../src/record/http.ts";
import { ReplayEngine } from "../../src/replay/engine.ts";
import { serveHttp } from "../../src/replay/http.ts";
import { CLI, tempDir } from "../helpers.ts";
import { startBackground, URL_LINE } from "../http/http_helpers.ts";
import { figure, LONG, rssKiB, sampleRss } from "./_helpers.ts";

const DEADLINE_MS = 800;
const INIT = {
  jsonrpc: "2.0",
  id: 0,
  method: "initialize",
  params: {
    protocolVersion: "2025-11-25",
    capabilities: {},
    clientInfo: { name: "t", version: "1" },
  },
};

/** An upstream that answers every JSON-RPC request, 400s anything else, and keeps the URLs it saw. */
async function startUpstream(): Promise<
  { url: string; seen: string[]; close: () => Promise<void> }
> {
  const seen: string[] = [];
  const server = http.createServer((req, res) => {
    seen.push(req.url ?? "");
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const text = Buffer.concat(chunks).toString("utf8");
      let message: { id?: unknown; jsonrpc?: string } | undefined;
      try {
        message = JSON.parse(text);
      } catch {
        message = undefined;
      }
      if (!message || Array.isArray(message) || message.jsonrpc !== "2.0") {
        res.writeHead(400, { "content-type": "text/plain" }).end(
          "upstream: not a JSON-RPC message",
        );
        return;
      }
      const result = {
        protocolVersion: "2025-11-25",
        capabilities: {},
        serverInfo: { name: "u", version: "1" },
      };
      res.writeHead(200, { "content-type": "application/json" })
        .end(JSON.stringify({ jsonrpc: "2.0", id: message.id, result }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const port = (server.address() as net.AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** Sends headers of a chunked POST, then a byte of body every 100 ms; resolves with the answer's status line and when. */
function trickle(
  port: number,
  giveUpMs = DEADLINE_MS * 20,
): Promise<{ status: string; ms: number }> {
  return new Promise((resolve) => {
    const socket = net.connect(port, "127.0.0.1");
    const started = performance.now();
    let received = "";
    let timer: ReturnType<typeof setInterval> | undefined;
    socket.on("connect", () => {
      socket.write(
        `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\n` +
          "Accept: application/json, text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n",
      );
      const body = JSON.stringify(INIT);
      let at = 0;
      timer = setInterval(() => {
        if (socket.destroyed) return;
        socket.write(`1\r\n${body[at++ % body.length]}\r\n`);
      }, 100);
    });
    // Generous: the cut comes at about the deadline; this only keeps a failure from hanging.
    const giveUp = setTimeout(() => socket.destroy(), giveUpMs);
    socket.on("data", (chunk) => (received += chunk.toString("latin1")));
    socket.on("error", () => {});
    socket.on("close", () => {
      clearInterval(timer);
      clearTimeout(giveUp);
      resolve({ status: received.split("\r\n")[0], ms: Math.round(performance.now() - started) });
    });
  });
}

test("HTTP replay: a chunked body trickling a byte at a time is cut with 408", async () => {
  const dir = tempDir("mcp-cassette-http-trickle-");
  const upstream = await startUpstream();
  let stop!: () => void;
  const until = new Promise<void>((resolve) => (stop = resolve));
  try {
    const cassette = path.join(dir, "r.cassette.jsonl");
    await recordOnce(upstream.url, cassette);
    const engine = new ReplayEngine(await loadCassette(cassette));
    const url = await new Promise<string>((resolve) => {
      void serveHttp(engine, {
        listen: "127.0.0.1:0",
        idleTimeoutMs: DEADLINE_MS,
        until,
        onListening: resolve,
      });
    });
    const cut = await trickle(Number(new URL(url).port));
    assert.match(cut.status, /^HTTP\/1\.1 408/, `answered ${cut.status} after ${cut.ms} ms`);
    figure("http-trickle", { side: "replay", deadlineMs: DEADLINE_MS, cutAfterMs: cut.ms });
  } finally {
    stop();
    await upstream.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

/** Records one initialize through the library recorder. */
async function recordOnce(url: string, cassette: string): Promise<void> {
  let stop!: () => void;
  const until = new Promise<void>((resolve) => (stop = resolve));
  const listening = new Promise<string>((resolve) => {
    void recordHttp({ url, output: cassette, until, onListening: resolve });
  });
  const proxy = await listening;
  const answer = await fetch(proxy, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
    body: JSON.stringify(INIT),
  });
  assert.equal(answer.status, 200);
  await answer.text();
  stop();
  await new Promise((resolve) => setTimeout(resolve, 100));
}

test("record --url: a chunked body trickling a byte at a time is cut with 408, and said so", async () => {
  const dir = tempDir("mcp-cassette-http-trickle-rec-");
  const upstream = await startUpstream();
  let stop!: () => void;
  const until = new Promise<void>((resolve) => (stop = resolve));
  const logged: string[] = [];
  try {
    const cassette = path.join(dir, "t.cassette.jsonl");
    const proxy = await new Promise<string>((resolve) => {
      void recordHttp({
        url: upstream.url,
        output: cassette,
        until,
        idleTimeoutMs: DEADLINE_MS,
        onListening: resolve,
        log: (line) => logged.push(line),
      });
    });
    const cut = await trickle(Number(new URL(proxy).port));
    assert.match(cut.status, /^HTTP\/1\.1 408/, `answered ${cut.status} after ${cut.ms} ms`);
    assert.ok(logged.some((line) => /body did not arrive in time/.test(line)), logged.join("\n"));
    figure("http-trickle", { side: "recorder", deadlineMs: DEADLINE_MS, cutAfterMs: cut.ms });
  } finally {
    stop();
    await upstream.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test("record --url: the upstream's query token is never printed, and still reaches the upstream", async () => {
  const dir = tempDir("mcp-cassette-http-secret-");
  const upstream = await startUpstream();
  const token = "tok_9f8e7d6c5b4a39281706";
  const cassette = path.join(dir, "s.cassette.jsonl");
  const recorder = await startBackground(
    [...CLI, "record", "-o", cassette, "--url", `${upstream.url}?token=${token}`],
    URL_LINE,
  );
  try {
    assert.equal(new URL(recorder.found).search, "", `the client is given ${recorder.found}`);
    const answer = await fetch(recorder.found, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
      },
      body: JSON.stringify(INIT),
    });
    assert.equal(answer.status, 200);
    await answer.text();
    assert.ok(upstream.seen.some((url) => url.includes(`token=${token}`)), upstream.seen.join(" "));
    await upstream.close();
    // Unreachable now: the error names the upstream, not its token.
    const failed = await fetch(recorder.found, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
      },
      body: JSON.stringify({ ...INIT, id: 1 }),
    });
    assert.equal(failed.status, 502);
    assert.doesNotMatch(await failed.text(), new RegExp(token));
    assert.equal(await recorder.stop(), 0);
    assert.doesNotMatch(recorder.output(), new RegExp(token), "not on stdout or stderr");
    assert.doesNotMatch(readFileSync(cassette, "utf8"), new RegExp(token), "not in the cassette");
  } finally {
    await recorder.stop("SIGKILL");
    await upstream.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test("record --url: a 100,000-deep JSON array is forwarded, answered by the upstream and recorded", async () => {
  const dir = tempDir("mcp-cassette-http-deep-");
  const upstream = await startUpstream();
  let stop!: () => void;
  const until = new Promise<void>((resolve) => (stop = resolve));
  try {
    const cassette = path.join(dir, "d.cassette.jsonl");
    const done = new Promise<number>((resolve, reject) => {
      const listening = new Promise<string>((found) => {
        recordHttp({ url: upstream.url, output: cassette, until, onListening: found }).then(
          resolve,
          reject,
        );
      });
      void listening.then(async (proxy) => {
        const deep = "[".repeat(100_000) + "]".repeat(100_000);
        const answer = await fetch(proxy, {
          method: "POST",
          headers: {
            "content-type": "application/json",
            accept: "application/json, text/event-stream",
          },
          body: deep,
        });
        assert.equal(answer.status, 400, "the upstream's answer is relayed");
        assert.equal(await answer.text(), "upstream: not a JSON-RPC message");
        stop();
      }).catch(reject);
    });
    assert.equal(await done, 0);
    const raw = readFileSync(cassette, "utf8").split("\n").filter((line) => line.includes('"raw"'));
    assert.ok(raw.some((line) => line.length > 200_000), "the deep body is recorded as text");
  } finally {
    stop();
    await upstream.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test(`record --url: a batch over ${MAX_BATCH_SIZE} messages is refused with one error`, async () => {
  const dir = tempDir("mcp-cassette-http-batch-");
  const upstream = await startUpstream();
  let stop!: () => void;
  const until = new Promise<void>((resolve) => (stop = resolve));
  try {
    const proxy = await new Promise<string>((resolve) => {
      void recordHttp({
        url: upstream.url,
        output: path.join(dir, "b.cassette.jsonl"),
        until,
        onListening: resolve,
      });
    });
    const batch = Array.from({ length: MAX_BATCH_SIZE + 1 }, (_, i) => ({ ...INIT, id: i }));
    const before = upstream.seen.length;
    const answer = await fetch(proxy, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
      },
      body: JSON.stringify(batch),
    });
    assert.equal(answer.status, 400);
    const body = await answer.json() as { error?: { message: string } };
    assert.ok(!Array.isArray(body), "one error, not one per message");
    assert.match(body.error!.message, new RegExp(`at most ${MAX_BATCH_SIZE}`));
    assert.equal(upstream.seen.length, before, "not forwarded");
  } finally {
    stop();
    await upstream.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test("record --url: six 10,000-message batches get one error each, memory stays flat", async () => {
  const dir = tempDir("mcp-cassette-http-batch-rss-");
  const upstream = await startUpstream();
  const recorder = await startBackground(
    [...CLI, "record", "-o", path.join(dir, "b.cassette.jsonl"), "--url", upstream.url],
    URL_LINE,
  );
  try {
    const batch = JSON.stringify(
      Array.from({ length: 10_000 }, (_, i) => ({ ...INIT, id: i, params: { n: i } })),
    );
    const rss = sampleRss(recorder.child.pid!);
    const before = rssKiB(recorder.child.pid!)!;
    let answered = 0;
    for (let round = 0; round < 6; round++) {
      const answer = await fetch(recorder.found, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
        },
        body: batch,
      });
      const text = await answer.text();
      assert.equal(answer.status, 400);
      assert.ok(text.length < 500, `one error, not ${text.length} bytes of them`);
      answered += text.length;
    }
    const samples = rss.stop();
    const after = rssKiB(recorder.child.pid!)!;
    assert.equal(await recorder.stop(), 0);
    figure("http-batch", {
      batches: 6,
      size: 10_000,
      answerBytes: answered,
      rssBeforeMiB: Math.round(before / 1024),
      rssPeakMiB: Math.round(Math.max(before, ...samples) / 1024),
      rssAfterMiB: Math.round(after / 1024),
      stderrBytes: recorder.output().length,
    });
  } finally {
    await recorder.stop("SIGKILL");
    await upstream.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

if (LONG) {
  test("replay --listen (CLI, default deadline): a trickled chunked body is cut with 408", async () => {
    const dir = tempDir("mcp-cassette-http-trickle-long-");
    const upstream = await startUpstream();
    try {
      const cassette = path.join(dir, "r.cassette.jsonl");
      await recordOnce(upstream.url, cassette);
      const replay = await startBackground(
        [...CLI, "replay", cassette, "--listen", "127.0.0.1:0"],
        URL_LINE,
      );
      try {
        const cut = await trickle(Number(new URL(replay.found).port), 60_000);
        assert.match(cut.status, /^HTTP\/1\.1 408/, `answered ${cut.status} after ${cut.ms} ms`);
        figure("http-trickle", { side: "replay CLI", deadlineMs: 30_000, cutAfterMs: cut.ms });
      } finally {
        await replay.stop();
      }
    } finally {
      await upstream.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
}
