/**
 * The recorder's body deadline bounds the client's body, not the upstream's
 * answer: on Deno the recorder reads the body within the deadline itself (the
 * request is not wrapped to watch it), so an upstream slower than the deadline
 * must still be answered and recorded, one exchange after another.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import http from "node:http";
import { readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { recordHttp } from "../../src/record/http.ts";
import { tempDir } from "../helpers.ts";
import { listenLocal } from "./http_helpers.ts";

const DEADLINE_MS = 300;
const UPSTREAM_DELAY_MS = DEADLINE_MS + 700;

/** An upstream that answers each JSON-RPC request only after UPSTREAM_DELAY_MS. */
async function startSlowUpstream(): Promise<{ url: string; close: () => Promise<void> }> {
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const message = JSON.parse(Buffer.concat(chunks).toString("utf8"));
      setTimeout(() => {
        res.writeHead(200, { "content-type": "application/json", "mcp-session-id": "s-1" }).end(
          JSON.stringify({
            jsonrpc: "2.0",
            id: message.id,
            result: {
              protocolVersion: "2025-06-18",
              capabilities: {},
              serverInfo: { name: "slow", version: "1" },
            },
          }),
        );
      }, UPSTREAM_DELAY_MS);
    });
  });
  return await listenLocal(server);
}

test("record --url: an upstream slower than the body deadline is answered and recorded, not cut with 408", async () => {
  const dir = tempDir("mcp-cassette-http-slow-upstream-");
  const upstream = await startSlowUpstream();
  let stop!: () => void;
  const until = new Promise<void>((resolve) => (stop = resolve));
  const logged: string[] = [];
  const cassette = path.join(dir, "slow.cassette.jsonl");
  let recording: Promise<number> | undefined;
  try {
    const proxy = await new Promise<string>((resolve) => {
      recording = recordHttp({
        url: upstream.url,
        output: cassette,
        until,
        requestTimeoutMs: DEADLINE_MS,
        onListening: resolve,
        log: (line) => logged.push(line),
      });
    });
    for (const id of [1, 2]) {
      const answer = await fetch(proxy, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
        },
        body: JSON.stringify({
          jsonrpc: "2.0",
          id,
          method: "initialize",
          params: {
            protocolVersion: "2025-06-18",
            capabilities: {},
            clientInfo: { name: "t", version: "1" },
          },
        }),
      });
      const text = await answer.text();
      assert.equal(answer.status, 200, `request ${id} answered ${answer.status}: ${text}`);
      assert.equal(JSON.parse(text).id, id);
    }
    assert.deepEqual(logged.filter((line) => /did not arrive in time/.test(line)), []);
    stop();
    await recording;
    const lines = readFileSync(cassette, "utf8").trim().split("\n").map((line) => JSON.parse(line));
    const ends = lines.filter((entry) => entry.type === "http-end").map((entry) => entry.reason);
    assert.deepEqual(ends, ["complete", "complete"]);
    const answers = lines.filter((entry) => entry.type === "message" && entry.dir === "s2c");
    assert.deepEqual(answers.map((entry) => entry.msg.id), [1, 2]);
  } finally {
    stop();
    await recording?.catch(() => {});
    await upstream.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
