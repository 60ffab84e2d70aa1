/**
 * The byte-level recorder does not reorder what one client sent: while a
 * session's GET stream has gone up and its answer head has not come back,
 * a POST of the same session waits, then goes up (src/record/http_bytes_openings.ts).
 *
 * The upstream here is a node:http server that answers the GET's head only
 * when the test says, and notes, for each POST, what had become of the GET
 * by the time the POST reached it. Every POST is sent after the upstream
 * has the GET, so the recorder had read the GET first. The wait's bound is
 * set out of reach (10 minutes) except where the bound itself is tested:
 * a wait released by the bound rather than by the head would hang the test.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import http from "node:http";
import path from "node:path";
import { readFileSync } from "node:fs";
import { cassetteLines, listenLocal, recordInProcess } from "./http_helpers.ts";
import type { LocalUpstream } from "./http_helpers.ts";
import { tempDir } from "../helpers.ts";

const OUT_OF_REACH_MS = 10 * 60_000;

/** What became of a session's GET stream at the upstream. */
type GetState = "none" | "waiting" | "open" | "dropped";

interface Upstream extends LocalUpstream {
  /** Resolves when the upstream has the GET of `session`. */
  getArrived(session: string): Promise<void>;
  /** Sends the GET's answer head now. */
  openStream(session: string): void;
  /** Destroys the GET's connection without an answer. */
  dropStream(session: string): void;
  /** For each POST with a session id, in arrival order: its session and its GET's state. */
  posts: { session: string; get: GetState }[];
}

interface Stream {
  state: GetState;
  arrived: Promise<void>;
  arrive(): void;
  res?: http.ServerResponse;
}

function json(res: http.ServerResponse, id: unknown, result: unknown, session?: string) {
  res.writeHead(200, {
    "content-type": "application/json",
    ...(session ? { "mcp-session-id": session } : {}),
  });
  res.end(JSON.stringify({ jsonrpc: "2.0", id, result }));
}

async function startUpstream(): Promise<Upstream> {
  const streams = new Map<string, Stream>();
  const streamOf = (session: string): Stream => {
    let stream = streams.get(session);
    if (!stream) {
      let arrive!: () => void;
      const arrived = new Promise<void>((resolve) => (arrive = resolve));
      stream = { state: "none", arrived, arrive };
      streams.set(session, stream);
    }
    return stream;
  };
  const posts: Upstream["posts"] = [];
  let sessions = 0;
  const server = http.createServer((req, res) => {
    const session = req.headers["mcp-session-id"];
    if (req.method === "GET" && typeof session === "string") {
      const stream = streamOf(session);
      // The recorder sends a GET again when a kept-alive connection was closed under it.
      if (stream.state === "dropped") return req.socket.destroy();
      stream.state = "waiting";
      stream.res = res;
      stream.arrive();
      return;
    }
    let body = "";
    req.on("data", (chunk) => (body += chunk));
    req.on("end", () => {
      const message = JSON.parse(body) as { id?: unknown; method: string };
      if (typeof session !== "string") {
        // initialize: a new session.
        return json(res, message.id, {
          protocolVersion: "2025-11-25",
          capabilities: {},
          serverInfo: { name: "stream-open-order", version: "1.0.0" },
        }, `s${++sessions}`);
      }
      posts.push({ session, get: streamOf(session).state });
      json(res, message.id, { content: [{ type: "text", text: "done" }] });
    });
  });
  const local = await listenLocal(server);
  return {
    ...local,
    posts,
    getArrived: (session) => streamOf(session).arrived,
    openStream: (session) => {
      const stream = streamOf(session);
      stream.res!.writeHead(200, { "content-type": "text/event-stream" });
      stream.res!.flushHeaders();
      stream.state = "open";
    },
    dropStream: (session) => {
      const stream = streamOf(session);
      stream.state = "dropped";
      stream.res!.socket?.destroy();
    },
  };
}

/** A client of the recorder: initialize, the GET stream, and calls, each on a connection of its own. */
class Session {
  id = "";
  #url: string;
  #aborts: AbortController[] = [];
  constructor(url: string) {
    this.#url = url;
  }

  async initialize(): Promise<void> {
    const response = await this.#post(
      { jsonrpc: "2.0", id: 0, method: "initialize", params: {} },
      false,
    );
    this.id = response.headers.get("mcp-session-id")!;
    await response.body?.cancel();
  }

  /** Sends the GET; its answer (its head) comes whenever it comes. */
  openStream(): Promise<Response | undefined> {
    const abort = new AbortController();
    this.#aborts.push(abort);
    return fetch(this.#url, {
      headers: { accept: "text/event-stream", "mcp-session-id": this.id },
      signal: abort.signal,
    }).catch(() => undefined);
  }

  async call(id: number): Promise<string> {
    const response = await this.#post({
      jsonrpc: "2.0",
      id,
      method: "tools/call",
      params: { name: "x", arguments: {} },
    }, true);
    return await response.text();
  }

  #post(message: unknown, withSession: boolean): Promise<Response> {
    const abort = new AbortController();
    this.#aborts.push(abort);
    return fetch(this.#url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        ...(withSession ? { "mcp-session-id": this.id } : {}),
      },
      body: JSON.stringify(message),
      signal: abort.signal,
    });
  }

  close(): void {
    for (const abort of this.#aborts) abort.abort();
  }
}

/** Runs `body` with an upstream, a byte-level recorder in front of it and the cassette's path. */
async function withRecorder(
  holdMs: number,
  body: (upstream: Upstream, url: string) => Promise<void>,
): Promise<Record<string, unknown>[]> {
  const upstream = await startUpstream();
  const output = path.join(tempDir(), "order.cassette.jsonl");
  const recorder = await recordInProcess({ url: upstream.url, output, engine: "bytes", holdMs });
  try {
    await body(upstream, recorder.url);
  } finally {
    await upstream.close();
    assert.equal(await recorder.stop(), 0);
  }
  return cassetteLines(readFileSync(output, "utf8"));
}

/**
 * Opens a session's GET stream and, while the upstream holds its head, sends
 * a call; after `waitMs`, `release` lets the GET go one way or the other.
 * Checks the call is answered, the GET's status, and what the upstream saw
 * of the GET when the POST reached it.
 */
async function callWhileOpening(
  upstream: Upstream,
  url: string,
  waitMs: number,
  release: (session: string) => void,
  status: number,
  seen: string,
): Promise<void> {
  const client = new Session(url);
  try {
    await client.initialize();
    const stream = client.openStream();
    await upstream.getArrived(client.id);
    const answered = client.call(1);
    await new Promise((resolve) => setTimeout(resolve, waitMs));
    release(client.id);
    assert.match(await answered, /"done"/);
    assert.equal((await stream)?.status, status);
    assert.deepEqual(upstream.posts, [{ session: client.id, get: seen }]);
  } finally {
    client.close();
  }
}

test("record --url, byte-level: a POST sent while its session's GET stream is opening reaches the upstream after the GET's head", async () => {
  const lines = await withRecorder(OUT_OF_REACH_MS, async (upstream, url) => {
    // Long enough for the POST to have reached the upstream, were it sent on at once.
    await callWhileOpening(upstream, url, 200, (id) => upstream.openStream(id), 200, "open");
  });
  // The cassette keeps the order the client sent in: the GET, then the call.
  const requests = lines.filter((l) => l.type === "http-request").map((l) => l.method);
  assert.deepEqual(requests, ["POST", "GET", "POST"]);
});

test("record --url, byte-level: a GET that fails before its head lets its session's waiting POST go", async () => {
  const lines = await withRecorder(OUT_OF_REACH_MS, async (upstream, url) => {
    await callWhileOpening(upstream, url, 100, (id) => upstream.dropStream(id), 502, "dropped");
  });
  const ends = lines.filter((l) => l.type === "http-end" && l.reason === "upstream-error");
  assert.equal(ends.length, 1, JSON.stringify(lines));
});

test("record --url, byte-level: a POST of another session does not wait for a GET stream opening", async () => {
  await withRecorder(OUT_OF_REACH_MS, async (upstream, url) => {
    const first = new Session(url);
    const second = new Session(url);
    try {
      await first.initialize();
      await second.initialize();
      const stream = first.openStream();
      await upstream.getArrived(first.id);
      assert.match(await second.call(1), /"done"/);
      assert.deepEqual(upstream.posts, [{ session: second.id, get: "none" }]);
      upstream.openStream(first.id);
      assert.equal((await stream)?.status, 200);
    } finally {
      first.close();
      second.close();
    }
  });
});

test("record --url, byte-level: a GET whose head does not come within the bound lets its session's POST go", async () => {
  await withRecorder(150, async (upstream, url) => {
    const client = new Session(url);
    try {
      await client.initialize();
      const stream = client.openStream();
      await upstream.getArrived(client.id);
      assert.match(await client.call(1), /"done"/);
      assert.deepEqual(upstream.posts, [{ session: client.id, get: "waiting" }]);
      upstream.openStream(client.id);
      assert.equal((await stream)?.status, 200);
    } finally {
      client.close();
    }
  });
});
