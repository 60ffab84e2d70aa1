/**
 * The byte-level HTTP recorder (src/record/http_bytes.ts) against the
 * fetch-based one: the same exchanges, through each in turn, must leave the
 * same cassette, line for line (times, the creation date and the proxy's
 * port aside). The upstream is a node:http server in this process whose
 * answers are fixed (no Date header, a fixed session id) and framed every
 * way the forwarding path reads: Content-Length, chunked, an SSE stream cut
 * mid-event, no body; what it does not forward (GET, DELETE) goes through
 * the fetch-based recorder behind it.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import http from "node:http";
import { createConnection, createServer } from "node:net";
import type net from "node:net";
import { readFileSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { listenLocal, recordInProcess } from "./http_helpers.ts";
import { tempDir } from "../helpers.ts";

interface Upstream {
  url: string;
  close(): Promise<void>;
}

function answer(res: http.ServerResponse, message: { id?: number; params?: { name?: string } }) {
  const result = { jsonrpc: "2.0", id: message.id, result: { echoed: message.params?.name ?? "" } };
  const name = message.params?.name;
  if (name === "chunked") {
    res.writeHead(200, { "content-type": "application/json" });
    const text = JSON.stringify(result);
    res.write(text.slice(0, 7));
    setTimeout(() => res.end(text.slice(7)), 5);
  } else if (name === "sse") {
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
    res.write("id: p0\ndata: \n\n");
    const event = `id: e1\nevent: message\nretry: 1000\ndata: ${JSON.stringify(result)}\n\n`;
    res.write(event.slice(0, 20));
    setTimeout(() => {
      res.write(event.slice(20));
      res.end('data: {"jsonrpc":"2.0","method":"notifications/message","params":{}}\n\n');
    }, 5);
  } else if (name === "gzip") {
    // Compressed whatever the request asked for: the recording keeps the text.
    res.writeHead(200, { "content-type": "application/json", "content-encoding": "gzip" });
    res.end(gzipSync(JSON.stringify(result)));
  } else {
    res.writeHead(200, { "content-type": "application/json", "mcp-session-id": "s-1" });
    res.end(JSON.stringify(result));
  }
}

async function startUpstream(): Promise<Upstream> {
  const server = http.createServer((req, res) => {
    res.sendDate = false;
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      if (req.method === "GET") return res.writeHead(405).end();
      if (req.method === "DELETE") return res.writeHead(200).end();
      const body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
      if (Array.isArray(body)) {
        res.writeHead(200, { "content-type": "application/json" });
        return res.end(JSON.stringify(body.map((m) => ({ jsonrpc: "2.0", id: m.id, result: {} }))));
      }
      if (!("id" in body)) return res.writeHead(202).end();
      answer(res, body);
    });
  });
  return await listenLocal(server);
}

const call = (id: number, name: string) =>
  JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: {} } });

/** One client's exchanges, the same through either recorder. */
async function exchanges(url: string, dated: boolean[]): Promise<string[]> {
  const headers: Record<string, string> = {
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
  };
  const seen: string[] = [];
  const post = async (body: string, extra: Record<string, string> = {}) => {
    const response = await fetch(url, { method: "POST", headers: { ...headers, ...extra }, body });
    seen.push(`${response.status} ${await response.text()}`);
    dated.push(response.headers.has("date"));
    return response;
  };
  const opened = await post(JSON.stringify({
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: {
      protocolVersion: "2025-06-18",
      capabilities: {},
      clientInfo: { name: "t", version: "1" },
    },
  }));
  headers["mcp-session-id"] = opened.headers.get("mcp-session-id") ?? "";
  await post(JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }));
  await post(call(2, "chunked"));
  await post(call(3, "sse"));
  await post(JSON.stringify([JSON.parse(call(4, "a")), JSON.parse(call(5, "b"))]));
  await post(call(6, "plain"), { authorization: "Bearer not-for-the-cassette" });
  await post(call(7, "gzip"));
  for (const method of ["GET", "DELETE"]) {
    const response = await fetch(url, { method, headers });
    seen.push(`${method} ${response.status} ${await response.text()}`);
  }
  return seen;
}

/** Records the exchanges with one recorder; the cassette's lines, made comparable. */
async function recordWith(engine: "bytes" | "fetch", upstream: Upstream, dir: string) {
  const output = path.join(dir, `${engine}.cassette.jsonl`);
  const recorder = await recordInProcess({ url: upstream.url, output, engine });
  const proxyUrl = recorder.url;
  // The upstream sends no Date: an answer with one was served anew, not passed on as it came.
  const dated: boolean[] = [];
  const seen = await exchanges(proxyUrl, dated);
  assert.equal(await recorder.stop(), 0);
  const port = new URL(proxyUrl).port;
  const lines = readFileSync(output, "utf8").trim().split("\n").map((line) =>
    line.replace(/"t":[0-9.]+/, '"t":0').replace(/"created":"[^"]*"/, '"created":""')
      .replaceAll(`127.0.0.1:${port}`, "PROXY")
  );
  return { seen, lines, dated };
}

test("record --url: the byte-level recorder writes the fetch-based recorder's cassette, line for line", async () => {
  const upstream = await startUpstream();
  const dir = await tempDir();
  try {
    const byFetch = await recordWith("fetch", upstream, dir);
    const byBytes = await recordWith("bytes", upstream, dir);
    assert.deepEqual(byFetch.dated, byFetch.dated.map(() => true));
    assert.deepEqual(byBytes.dated, byBytes.dated.map(() => false));
    assert.deepEqual(byBytes.seen, byFetch.seen);
    assert.ok(byFetch.lines.length > 20, byFetch.lines.join("\n"));
    assert.deepEqual(byBytes.lines, byFetch.lines);
    assert.ok(!byBytes.lines.some((line) => line.includes("not-for-the-cassette")));
  } finally {
    await upstream.close();
  }
});

/**
 * An upstream that closes each connection shortly after answering, without
 * saying so (no `Connection: close`), as one whose keep-alive timeout passed.
 */
async function startClosingUpstream(): Promise<Upstream> {
  const server = createServer((socket) => {
    let text = "";
    socket.on("error", () => {});
    socket.on("data", (chunk) => {
      text += chunk.toString("latin1");
      const end = text.indexOf("\r\n\r\n");
      const length = Number(/content-length: *(\d+)/i.exec(text)?.[1] ?? NaN);
      if (end < 0 || text.length < end + 4 + length) return;
      const { id } = JSON.parse(text.slice(end + 4, end + 4 + length));
      const body = JSON.stringify({ jsonrpc: "2.0", id, result: {} });
      socket.write(
        `HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\n\r\n${body}`,
      );
      text = "";
      setTimeout(() => socket.end(), 20);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const port = (server.address() as net.AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

test("record --url, byte-level: a kept-alive upstream connection the upstream closed between requests is opened again", async () => {
  const upstream = await startClosingUpstream();
  const dir = await tempDir();
  try {
    const output = path.join(dir, "again.cassette.jsonl");
    const recorder = await recordInProcess({ url: upstream.url, output, engine: "bytes" });
    const proxy = new URL(recorder.url);
    // One client connection for all three: the recorder keeps one upstream connection for it.
    const socket = createConnection(Number(proxy.port), "127.0.0.1");
    socket.on("error", () => {});
    let received = "";
    socket.on("data", (chunk) => (received += chunk.toString("latin1")));
    for (let id = 1; id <= 3; id++) {
      const body = call(id, "plain");
      socket.write(
        `POST /mcp HTTP/1.1\r\nHost: ${proxy.host}\r\nContent-Type: application/json\r\n` +
          `Content-Length: ${body.length}\r\n\r\n${body}`,
      );
      for (let waited = 0; !received.includes(`"id":${id},`) && waited < 5000; waited += 10) {
        if (socket.destroyed) break;
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      // The upstream closes the connection the recorder keeps meanwhile.
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    socket.destroy();
    assert.equal(await recorder.stop(), 0);
    assert.equal(received.match(/HTTP\/1\.1 200/g)?.length, 3, received);
    const ends = readFileSync(output, "utf8").trim().split("\n").map((line) => JSON.parse(line))
      .filter((entry) => entry.type === "http-end").map((entry) => entry.reason);
    assert.deepEqual(ends, ["complete", "complete", "complete"]);
  } finally {
    await upstream.close();
  }
});

/** Starts the byte-level recorder in front of the fixed upstream; stops both at the end. */
async function withByteRecorder(
  options: { idleTimeoutMs?: number; requestTimeoutMs?: number },
  body: (proxy: URL, logged: string[], output: string) => Promise<void>,
): Promise<void> {
  const upstream = await startUpstream();
  const dir = await tempDir();
  const logged: string[] = [];
  const output = path.join(dir, "b.cassette.jsonl");
  const recorder = await recordInProcess({
    url: upstream.url,
    output,
    engine: "bytes",
    ...options,
    log: (line) => logged.push(line),
  });
  try {
    await body(new URL(recorder.url), logged, output);
  } finally {
    await recorder.stop();
    await upstream.close();
  }
}

/**
 * Writes `text` on a fresh connection; resolves with all that came back once
 * it closes, and whether this side had to close it (after `giveUpMs`).
 */
function rawExchange(
  port: number,
  text: string,
  giveUpMs = 10_000,
): Promise<{ received: string; gaveUp: boolean }> {
  return new Promise((resolve) => {
    let received = "";
    let gaveUp = false;
    const socket = createConnection(port, "127.0.0.1", () => socket.write(text));
    // Generous: only keeps a failure from hanging.
    const giveUp = setTimeout(() => {
      gaveUp = true;
      socket.destroy();
    }, giveUpMs);
    socket.on("data", (chunk) => (received += chunk.toString("latin1")));
    socket.on("error", () => {});
    socket.on("close", () => {
      clearTimeout(giveUp);
      resolve({ received, gaveUp });
    });
  });
}

test("record --url, byte-level: a Content-Length body that stops short is cut with 408 at the deadline, and said so", async () => {
  await withByteRecorder({ requestTimeoutMs: 300 }, async (proxy, logged) => {
    const body = call(1, "plain");
    const { received, gaveUp } = await rawExchange(
      Number(proxy.port),
      `POST /mcp HTTP/1.1\r\nHost: ${proxy.host}\r\nContent-Type: application/json\r\n` +
        `Content-Length: ${body.length + 10}\r\n\r\n${body}`,
    );
    assert.equal(gaveUp, false, "the recorder never closed the connection");
    assert.match(received.split("\r\n")[0], /^HTTP\/1\.1 408/, received);
    assert.ok(
      logged.some((line) => /cut a POST \/mcp .*did not arrive in time/.test(line)),
      logged.join("\n"),
    );
  });
});

test("record --url, byte-level: a kept-alive client connection idle past the idle timeout is closed", async () => {
  await withByteRecorder({ idleTimeoutMs: 300 }, async (proxy) => {
    const body = call(1, "plain");
    // One answered request, then nothing: the connection must not stay open for good.
    const { received, gaveUp } = await rawExchange(
      Number(proxy.port),
      `POST /mcp HTTP/1.1\r\nHost: ${proxy.host}\r\nContent-Type: application/json\r\n` +
        `Content-Length: ${body.length}\r\n\r\n${body}`,
    );
    assert.equal(gaveUp, false, "the recorder never closed the idle connection");
    assert.match(received, /^HTTP\/1\.1 200/);
    assert.match(received, /"id":1/);
  });
});

test("record --url, byte-level: a foreign Host or Origin is refused (403), what is handed on is checked against the recorder's own address", async () => {
  await withByteRecorder({}, async (proxy) => {
    const post = (headers: Record<string, string>) =>
      rawExchange(
        Number(proxy.port),
        `POST /mcp HTTP/1.1\r\n${
          Object.entries(headers).map(([k, v]) => `${k}: ${v}\r\n`).join("")
        }Content-Type: application/json\r\nContent-Length: ${call(1, "plain").length}\r\n` +
          `Connection: close\r\n\r\n${call(1, "plain")}`,
      );
    const status = (text: string) => text.split("\r\n")[0];
    assert.match(status((await post({ host: proxy.host })).received), /^HTTP\/1\.1 200/);
    const foreignOrigin = await post({ host: proxy.host, origin: "http://evil.example" });
    assert.match(status(foreignOrigin.received), /^HTTP\/1\.1 403/);
    const foreignHost = await post({ host: `evil.example:${proxy.port}` });
    assert.match(status(foreignHost.received), /^HTTP\/1\.1 403/);
    // A GET goes to the fetch-based recorder behind: the upstream's own 405, not a refusal.
    const get = await fetch(proxy, { headers: { accept: "text/event-stream" } });
    await get.text();
    assert.equal(get.status, 405);
  });
});
