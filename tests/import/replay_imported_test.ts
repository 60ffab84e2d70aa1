/**
 * Other tools' cassettes replay to the official SDK client directly, with
 * the answers they hold: every client request the file recorded is sent
 * again through `mcp-cassette replay FILE`, and each answer must equal the
 * one recorded in the file (and, for the TypeScript tool's stdio sample, what
 * that tool's client received live).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { loadCassette } from "../../src/cassette/reader.ts";
import type { JsonRpcMessage } from "../../src/jsonrpc.ts";
import { idKey } from "../../src/jsonrpc.ts";
import { CLI, DENO, PEERS, ROOT, run } from "../helpers.ts";

const CLIENT = [
  DENO,
  "run",
  "-A",
  "--no-check",
  path.join(ROOT, "tests/fixtures/replay_recorded.ts"),
];

/** The recorded answer to each client request, in request order (initialize excluded). */
async function recordedAnswers(file: string) {
  const cassette = await loadCassette(file);
  const answers: { method: string; result?: unknown; error?: unknown }[] = [];
  const bySession = new Map<string, Map<string, number>>();
  for (const entry of cassette.entries) {
    if (entry.type !== "message") continue;
    const msg = entry.msg as JsonRpcMessage;
    const waiting = bySession.get(entry.session ?? "") ?? new Map<string, number>();
    bySession.set(entry.session ?? "", waiting);
    if (
      entry.dir === "c2s" && typeof msg.method === "string" && msg.id !== undefined &&
      msg.method !== "initialize"
    ) {
      waiting.set(idKey(msg.id), answers.length);
      answers.push({ method: msg.method });
    } else if (entry.dir === "s2c" && msg.method === undefined && waiting.has(idKey(msg.id))) {
      const at = waiting.get(idKey(msg.id))!;
      waiting.delete(idKey(msg.id));
      if ("error" in msg) answers[at].error = msg.error;
      else answers[at].result = msg.result;
    }
  }
  return answers;
}

// Every sample that holds a whole session (the SDK client always opens with
// initialize; stdio-tape.jsonl and tape.http.jsonl are fragments without one).
const SAMPLES = [
  "ts-mcp-cassette/everything.stdio.cassette.jsonl",
  "ts-mcp-cassette/initiated.http.cassette.jsonl",
  "python-mcp-cassette/echo_and_add.v1.mcp.json",
  "python-mcp-cassette/http_echo_and_add.v2.mcp.json",
  "python-mcp-cassette/sampling.v2.mcp.json",
  "python-mcp-cassette/tools.v2.mcp.json",
  "python-mcp-cassette/pii.v3.mcp.json",
  "mcp-replay/everything.session.jsonl",
];

for (const sample of SAMPLES) {
  test(`${sample} replays to the SDK client with the answers it holds`, async () => {
    const file = path.join(PEERS, sample);
    const expected = await recordedAnswers(file);
    assert.ok(expected.length > 0, "the sample holds client requests");
    const result = await run([...CLIENT, file, "--", ...CLI, "replay", "--quiet", file]);
    assert.equal(result.code, 0, result.stderr);
    const got = JSON.parse(result.stdout) as {
      method: string;
      result?: unknown;
      error?: { code: number; message: string };
    }[];
    assert.equal(got.length, expected.length);
    for (const [i, answer] of expected.entries()) {
      assert.equal(got[i].method, answer.method);
      if (answer.error !== undefined) {
        assert.equal(
          got[i].error?.code,
          (answer.error as { code: number }).code,
          `${sample} #${i} ${answer.method}`,
        );
      } else {
        assert.deepEqual(got[i].result, answer.result, `${sample} #${i} ${answer.method}`);
      }
    }
  });
}

test("the TypeScript tool's stdio sample replays to what its client received live", async () => {
  const file = path.join(PEERS, "ts-mcp-cassette/everything.stdio.cassette.jsonl");
  const live = JSON.parse(
    readFileSync(path.join(PEERS, "ts-mcp-cassette/everything.stdio.expected.json"), "utf8"),
  );
  const result = await run([...CLIENT, file, "--", ...CLI, "replay", "--quiet", file]);
  assert.equal(result.code, 0, result.stderr);
  const got = JSON.parse(result.stdout) as { result?: unknown }[];
  const steps = Object.keys(live).filter((key) => key !== "server");
  assert.equal(got.length, steps.length);
  steps.forEach((step, i) => assert.deepEqual(got[i].result, live[step], step));
});
