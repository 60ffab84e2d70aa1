/**
 * Load over HTTP: 200 concurrent client sessions against `replay --listen`
 * for 5 s (MCP_CASSETTE_LONG=1: 60 s). Each client loops: initialize, the
 * recorded calls (JSON and SSE answers) one after another, DELETE, and a new
 * session. The replay serves every new client session from a recorded one
 * (the first RECORDED fresh, then again from the start: see
 * ReplayEngine.claimRecording), so no answer is ever a repeat. Every answer
 * must carry the request's id and the recorded result; no request may fail.
 * The replay's RSS is sampled every second from /proc and must stay within a
 * generous bound (start, peak and end are reported).
 *
 * Every fifth call was recorded as an SSE stream. The replay's cap on open
 * SSE streams (1024 by default) is above what 200 clients hold at once, so a
 * 503 "Too many open streams" is an error here like any other.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import process from "node:process";
import { loadCassette } from "../../src/cassette/reader.ts";
import { CLI, tempDir } from "../helpers.ts";
import { startBackground, URL_LINE } from "../http/http_helpers.ts";
import { figure, LONG, rssKiB } from "./_helpers.ts";
import {
  callMessage,
  initializeMessage,
  openSession,
  post,
  startHttpFixture,
  startHttpRecorder,
} from "./_http.ts";
import type { Msg } from "./_http.ts";

const CLIENTS = Number(process.env.LOAD_CLIENTS ?? 200);
/** A run with fewer (or more) clients than the default says so in its name. */
const OVERRIDE = process.env.LOAD_CLIENTS ? ` [LOAD_CLIENTS=${process.env.LOAD_CLIENTS}]` : "";
const SECONDS = LONG ? 60 : 5;
/** Sessions recorded; the replay serves more client sessions than this by reusing them. */
const RECORDED = 3;
/** Calls per session: every fifth answered as an SSE stream. */
const CALLS = 10;

function callArgs(n: number): Record<string, unknown> {
  return { n, text: `call ${n}`, ...(n % 5 === 4 ? { sse: true } : {}) };
}

/** Records RECORDED sessions of the fixture through record --url; returns the cassette path. */
async function recordSessions(): Promise<string> {
  const cassette = path.join(tempDir("mcp-cassette-http-load-"), "load.cassette.jsonl");
  const fixture = await startHttpFixture();
  const recorder = await startHttpRecorder(fixture.url, cassette);
  try {
    for (let s = 0; s < RECORDED; s++) {
      const sessionId = await openSession(recorder.url);
      for (let n = 0; n < CALLS; n++) {
        const answer = await post(recorder.url, callMessage(n + 1, "echo", callArgs(n)), {
          sessionId,
        });
        assert.equal(answer.status, 200);
      }
      const deleted = await fetch(recorder.url, {
        method: "DELETE",
        headers: { "mcp-session-id": sessionId },
      });
      assert.equal(deleted.status, 200);
    }
    assert.equal(await recorder.stop(), 0);
  } finally {
    await recorder.stop("SIGKILL");
    await fixture.stop("SIGTERM");
  }
  return cassette;
}

test(`HTTP replay: ${CLIENTS} concurrent sessions for ${SECONDS} s, every answer matched, no error, bounded RSS${OVERRIDE}`, async () => {
  const cassette = await recordSessions();
  // The recorded answer to each call, by its arguments.
  const recorded = new Map<string, unknown>();
  let initializeResult: unknown;
  for (const entry of (await loadCassette(cassette)).entries) {
    if (entry.type !== "message" || entry.dir !== "s2c") continue;
    const msg = entry.msg as Msg & {
      result?: { content?: { text: string }[]; protocolVersion?: string };
    };
    if (msg.result?.protocolVersion) initializeResult = msg.result;
    const text = msg.result?.content?.[0]?.text;
    if (text) recorded.set(text, msg.result);
  }
  assert.equal(recorded.size, CALLS);

  const replay = await startBackground([...CLI, "replay", cassette, "--listen", "0"], URL_LINE);
  const pid = replay.child.pid!;
  const url = replay.found;
  const rss: number[] = [rssKiB(pid)!];
  const sampler = setInterval(() => {
    const value = rssKiB(pid);
    if (value !== undefined) rss.push(value);
  }, 1000);
  const errors: string[] = [];
  let requests = 0;
  let sessions = 0;
  let sseAnswers = 0;
  const deadline = Date.now() + SECONDS * 1000;
  const fail = (what: string) => {
    if (errors.length < 20) errors.push(what);
    else errors.length++;
  };

  const client = async (c: number) => {
    let id = c * 1_000_000;
    while (Date.now() < deadline) {
      try {
        const init = await post(url, initializeMessage(++id));
        requests++;
        const sessionId = init.sessionId;
        if (init.status !== 200 || !sessionId) {
          fail(`client ${c}: initialize got ${init.status}`);
          continue;
        }
        if (init.messages[0]?.id !== id) {
          fail(`client ${c}: initialize ${id} answered with id ${init.messages[0]?.id}`);
        }
        assert.deepEqual(init.messages[0]?.result, initializeResult);
        const initialized = await post(
          url,
          { jsonrpc: "2.0", method: "notifications/initialized" },
          { sessionId },
        );
        requests++;
        if (initialized.status !== 202) {
          fail(`client ${c}: notifications/initialized got ${initialized.status}`);
        }
        for (let n = 0; n < CALLS; n++) {
          const args = callArgs(n);
          const answer = await post(url, callMessage(++id, "echo", args), { sessionId });
          requests++;
          if (answer.sse) sseAnswers++;
          const reply = answer.messages.find((m) => m.method === undefined);
          if (answer.status !== 200 || !answer.complete) {
            fail(`client ${c}: call ${n} got ${answer.status}, complete ${answer.complete}`);
          } else if (reply?.id !== id) {
            fail(`client ${c}: request ${id} answered with id ${JSON.stringify(reply?.id)}`);
          } else {
            try {
              assert.deepEqual(reply.result, recorded.get(JSON.stringify(args)));
            } catch {
              fail(
                `client ${c}: request ${id} (${JSON.stringify(args)}) got ${
                  JSON.stringify(reply.result ?? reply.error)
                }`,
              );
            }
          }
        }
        const deleted = await fetch(url, {
          method: "DELETE",
          headers: { "mcp-session-id": sessionId },
        });
        await deleted.body?.cancel();
        requests++;
        if (deleted.status !== 200) fail(`client ${c}: DELETE got ${deleted.status}`);
        sessions++;
      } catch (error) {
        fail(`client ${c}: ${(error as Error).message}`);
      }
    }
  };
  try {
    await Promise.all(Array.from({ length: CLIENTS }, (_, c) => client(c)));
    await new Promise((resolve) => setTimeout(resolve, 1000));
    rss.push(rssKiB(pid)!);
  } finally {
    clearInterval(sampler);
    await replay.stop("SIGTERM");
  }
  const mb = (kib: number) => Math.round(kib / 1024);
  figure("http-replay-load", {
    clients: CLIENTS,
    seconds: SECONDS,
    sessions,
    requests,
    requestsPerSecond: Math.round(requests / SECONDS),
    sseAnswers,
    errors: errors.length,
    rssMB: {
      start: mb(rss[0]),
      peak: mb(Math.max(...rss)),
      end: mb(rss.at(-1)!),
      samples: rss.length,
      every5s: rss.filter((_, i) => i % 5 === 0).map(mb),
    },
  });
  assert.deepEqual(errors, [], "no mismatched answer and no error");
  assert.ok(sessions >= CLIENTS, `every client finished at least one session (${sessions})`);
  // Generous: the replay starts near 60 MB; 300 MB means something is held per request or session.
  assert.ok(Math.max(...rss) < 300 * 1024, `peak RSS ${mb(Math.max(...rss))} MB`);
  // Flat once warm: what a served-and-deleted session leaves behind must be small.
  if (rss.length > 20) {
    assert.ok(
      rss.at(-1)! - rss[10] < 100 * 1024,
      `RSS grew from ${mb(rss[10])} MB to ${mb(rss.at(-1)!)} MB`,
    );
  }
});
