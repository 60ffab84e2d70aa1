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
import type { JsonRpcMessage } from "../../src/jsonrpc/messages.ts";
import { idKey } from "../../src/jsonrpc/messages.ts";
import { CLI, DENO, FOREIGN, ROOT, run } from "../helpers.ts";

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
  "python-mcp-cassette/session.v3.mcp.json",
  "python-mcp-cassette/everything.http.v3.mcp.json",
  "mcp-rec/session.jsonl",
  "mcp-rec/two-launches.jsonl",
  "mcp-vcr/session.ndjson",
  "mcp-recorder/session.json",
];

for (const sample of SAMPLES) {
  test(`${sample} replays to the SDK client with the answers it holds`, async () => {
    const file = path.join(FOREIGN, sample);
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
  const file = path.join(FOREIGN, "ts-mcp-cassette/everything.stdio.cassette.jsonl");
  const live = JSON.parse(
    readFileSync(path.join(FOREIGN, "ts-mcp-cassette/everything.stdio.expected.json"), "utf8"),
  );
  const result = await run([...CLIENT, file, "--", ...CLI, "replay", "--quiet", file]);
  assert.equal(result.code, 0, result.stderr);
  const got = JSON.parse(result.stdout) as { result?: unknown }[];
  const steps = Object.keys(live).filter((key) => key !== "server");
  assert.equal(got.length, steps.length);
  steps.forEach((step, i) => assert.deepEqual(got[i].result, live[step], step));
});

/** Samples whose session was driven by the SDK client, with what it received live beside them. */
const LIVE: [string, string][] = [
  ["python-mcp-cassette/session.v3.mcp.json", "python-mcp-cassette/session.expected.json"],
  ["mcp-rec/session.jsonl", "mcp-rec/session.expected.json"],
  ["mcp-vcr/session.ndjson", "mcp-vcr/session.expected.json"],
];

for (const [sample, expected] of LIVE) {
  test(`${sample} replays to what the SDK client received live from the real server`, async () => {
    const file = path.join(FOREIGN, sample);
    const { server: _server, ...live } = JSON.parse(
      readFileSync(path.join(FOREIGN, expected), "utf8"),
    );
    const result = await run([...CLIENT, file, "--", ...CLI, "replay", "--quiet", file]);
    assert.equal(result.code, 0, result.stderr);
    const got = JSON.parse(result.stdout) as { result?: unknown; error?: { code: number } }[];
    const steps = Object.keys(live);
    assert.equal(got.length, steps.length);
    steps.forEach((step, i) => {
      const thrown = (live[step] as { thrown?: { code: number } }).thrown;
      if (thrown) assert.equal(got[i].error?.code, thrown.code, step);
      else assert.deepEqual(got[i].result, live[step], step);
    });
  });
}
