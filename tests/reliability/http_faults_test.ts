/**
 * Faults over HTTP are recorded as what they were, and the recorder keeps
 * serving: a client that drops an SSE stream mid-way leaves the events it
 * got and an `http-end` with reason `client-closed` (and the upstream sees
 * the close); an upstream that never answers leaves the request with no
 * invented response, the client's later requests are still answered, and a
 * client that gives up on it is recorded as `client-closed` too.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { loadCassette } from "../../src/cassette/reader.ts";
import type { Entry } from "../../src/cassette/format.ts";
import { tempDir } from "../helpers.ts";
import { pollUntil } from "./_helpers.ts";
import { callMessage, openSession, post, startHttpFixture, startHttpRecorder } from "./_http.ts";
import type { Msg } from "./_http.ts";

function entries(cassette: string): Entry[] {
  if (!existsSync(cassette)) return [];
  return readFileSync(cassette, "utf8").split("\n").filter((line) => line.trim() !== "").map((
    line,
  ) => JSON.parse(line));
}

/** The entries of the exchange that carried the request with this id. */
function exchangeOf(all: Entry[], id: number): Entry[] {
  const request = all.find((entry) =>
    entry.type === "message" && entry.dir === "c2s" && (entry.msg as Msg).id === id
  );
  assert.ok(request, `request ${id} is in the cassette`);
  return all.filter((entry) => entry.x === request.x);
}

test("HTTP: a client that drops an SSE stream mid-way is recorded as client-closed; the recorder keeps serving", async () => {
  const fixture = await startHttpFixture();
  const cassette = path.join(tempDir("mcp-cassette-http-faults-"), "drop.cassette.jsonl");
  const recorder = await startHttpRecorder(fixture.url, cassette);
  try {
    const sessionId = await openSession(recorder.url);
    const abort = new AbortController();
    const got: Msg[] = [];
    const streamed = post(recorder.url, callMessage(1, "stream", { count: 10_000, everyMs: 5 }), {
      sessionId,
      signal: abort.signal,
      onEvent: (event) => {
        got.push(event);
        if (got.length === 5) abort.abort();
      },
    });
    const answer = await streamed.catch(() => undefined);
    assert.ok(!answer?.complete, "the client left before the end");
    assert.ok(got.length >= 5);
    await pollUntil(
      () => exchangeOf(entries(cassette), 1).some((entry) => entry.type === "http-end"),
      "the stream's http-end",
    );
    const stream = exchangeOf(entries(cassette), 1);
    const ends = stream.filter((entry) => entry.type === "http-end") as { reason: string }[];
    assert.deepEqual(ends.map((end) => end.reason), ["client-closed"]);
    const recorded = stream.filter((entry) => entry.type === "message" && entry.dir === "s2c").map((
      entry,
    ) => JSON.stringify((entry as { msg: unknown }).msg));
    for (const event of got.slice(0, 5)) {
      assert.ok(recorded.includes(JSON.stringify(event)), "each event the client got is recorded");
    }
    assert.ok(recorded.length < 10_000, "the recorder stopped relaying when the client left");
    // The close reached the upstream.
    const statsUrl = new URL("/stats", fixture.url);
    let closed = 0;
    for (let i = 0; i < 50 && closed === 0; i++) {
      closed = (await (await fetch(statsUrl)).json()).streamsClosedByClient;
      if (closed === 0) await new Promise((resolve) => setTimeout(resolve, 20));
    }
    assert.equal(closed, 1, "the upstream saw its stream closed");
    // And the recorder still serves this session.
    const later = await post(recorder.url, callMessage(2, "echo", { after: "drop" }), {
      sessionId,
    });
    assert.equal(later.status, 200);
    assert.deepEqual(later.messages[0]?.result, {
      content: [{ type: "text", text: '{"after":"drop"}' }],
    });
    assert.equal(await recorder.stop(), 0);
    const loaded = await loadCassette(cassette);
    assert.equal(loaded.torn, undefined);
  } finally {
    await recorder.stop("SIGKILL");
    await fixture.stop("SIGTERM");
  }
});

test("HTTP: an upstream that hangs is recorded unanswered, later requests work, a client that gives up is client-closed", async () => {
  const fixture = await startHttpFixture();
  const cassette = path.join(tempDir("mcp-cassette-http-faults-"), "hang.cassette.jsonl");
  const recorder = await startHttpRecorder(fixture.url, cassette);
  try {
    const sessionId = await openSession(recorder.url);
    // One hung request the client keeps waiting on, one it gives up on.
    const waiting = post(recorder.url, callMessage(1, "hang"), { sessionId }).catch((error) =>
      error
    );
    const abort = new AbortController();
    const givenUp = post(recorder.url, callMessage(2, "hang"), { sessionId, signal: abort.signal })
      .catch((error) => error);
    for (let id = 3; id < 13; id++) {
      const later = await post(
        recorder.url,
        callMessage(id, "echo", { id, ...(id % 2 ? { sse: true } : {}) }),
        { sessionId },
      );
      assert.equal(later.status, 200);
      assert.ok(later.complete);
      assert.deepEqual(later.messages.at(-1)?.result, {
        content: [{ type: "text", text: JSON.stringify({ id, ...(id % 2 ? { sse: true } : {}) }) }],
      });
    }
    abort.abort();
    await givenUp;
    await pollUntil(
      () => exchangeOf(entries(cassette), 2).some((entry) => entry.type === "http-end"),
      "the abandoned request's http-end",
    );
    const abandoned = exchangeOf(entries(cassette), 2);
    assert.deepEqual(abandoned.map((entry) => entry.type), ["http-request", "message", "http-end"]);
    assert.equal((abandoned[2] as { reason: string }).reason, "client-closed");

    // The recorder stops on SIGINT even with a request still hanging.
    // Waiting for the hung upstream would never end: stop() would SIGKILL it
    // after 10 s and the code would not be 0.
    const stopping = Date.now();
    const code = await recorder.stop();
    assert.equal(
      code,
      0,
      `exited on its own ${Date.now() - stopping} ms after SIGINT? ${recorder.output()}`,
    );
    await waiting;
    const all = (await loadCassette(cassette)).entries;
    const hung = exchangeOf(all, 1);
    assert.deepEqual(hung.slice(0, 2).map((entry) => entry.type), ["http-request", "message"]);
    assert.ok(
      !hung.some((entry) => entry.type === "http-response"),
      "no response was invented for the hung request",
    );
    assert.ok(
      !all.some((entry) =>
        entry.type === "message" && entry.dir === "s2c" &&
        [1, 2].includes((entry.msg as Msg).id as number)
      ),
    );
    assert.ok(
      all.some((entry) => entry.type === "session" && entry.event === "end"),
      "the session end is written",
    );
  } finally {
    await recorder.stop("SIGKILL");
    await fixture.stop("SIGTERM");
  }
});
