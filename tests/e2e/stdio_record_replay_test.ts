/**
 * The core path over stdio with real parts: the official SDK client drives
 * the reference server through `record`, then the same script drives
 * `replay`, and every result must be identical.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { CLI, EVERYTHING, run, SDK_SESSION, tempDir } from "../helpers.ts";

function parseSession(stdout: string) {
  return JSON.parse(stdout) as {
    results: Record<string, unknown>;
    asked: unknown[];
    progress: unknown[];
  };
}

test("SDK client gets identical results from record and from replay (server-everything, stdio)", async () => {
  const dir = tempDir();
  const cassette = path.join(dir, "everything.cassette.jsonl");
  const live = await run([
    ...SDK_SESSION,
    "--",
    ...CLI,
    "record",
    "-o",
    cassette,
    "--",
    ...EVERYTHING,
  ]);
  assert.equal(live.code, 0, live.stderr);
  const recorded = parseSession(live.stdout);
  assert.equal(
    (recorded.results.sum as { content: { text: string }[] }).content[0].text,
    "The sum of 2 and 40 is 42.",
  );

  const replay = await run([...SDK_SESSION, "--", ...CLI, "replay", cassette]);
  assert.equal(replay.code, 0, replay.stderr);
  assert.deepEqual(parseSession(replay.stdout), recorded);

  const lines = readFileSync(cassette, "utf8").trim().split("\n").map((line) => JSON.parse(line));
  assert.equal(lines[0].format, "mcp-cassette");
  assert.equal(lines[0].transport, "stdio");
  const methods = lines.filter((entry) => entry.type === "message" && entry.dir === "c2s").map((
    entry,
  ) => entry.msg.method);
  assert.ok(methods.includes("initialize"));
  assert.equal(methods.filter((method) => method === "tools/call").length, 6);
});

test("replay answers a true miss with -32001 naming the closest recording, and exits 3", async () => {
  const dir = tempDir();
  const cassette = path.join(dir, "c.cassette.jsonl");
  const live = await run([
    ...SDK_SESSION,
    "--",
    ...CLI,
    "record",
    "-o",
    cassette,
    "--",
    ...EVERYTHING,
  ]);
  assert.equal(live.code, 0, live.stderr);
  const input = [
    {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: {
        protocolVersion: "2025-11-25",
        capabilities: {},
        clientInfo: { name: "t", version: "1" },
      },
    },
    { jsonrpc: "2.0", method: "notifications/initialized" },
    {
      jsonrpc: "2.0",
      id: 3,
      method: "tools/call",
      params: { name: "get-sum", arguments: { a: 2, b: 40 } },
    },
    {
      jsonrpc: "2.0",
      id: 4,
      method: "tools/call",
      params: { name: "get-sum", arguments: { a: 2, b: 40 } },
    },
    {
      jsonrpc: "2.0",
      id: 5,
      method: "tools/call",
      params: { name: "get-sum", arguments: { a: 2, b: 40 } },
    },
    // The only get-sum answer is used up: a different argument is now a true miss.
    {
      jsonrpc: "2.0",
      id: 2,
      method: "tools/call",
      params: { name: "get-sum", arguments: { a: 2, b: 41 } },
    },
    { jsonrpc: "2.0", id: 6, method: "tools/call", params: { name: "no-such", arguments: {} } },
  ].map((message) => JSON.stringify(message)).join("\n") + "\nnot json at all\n";
  const result = await run([...CLI, "replay", cassette], { input });
  assert.equal(result.code, 3, result.stderr);
  const answers = result.stdout.trim().split("\n").map((line) => JSON.parse(line));
  const byId = new Map(answers.map((answer) => [answer.id, answer]));
  assert.equal(byId.get(1).result.serverInfo.name, "mcp-servers/everything");
  const miss = byId.get(2).error;
  assert.equal(miss.code, -32001);
  assert.match(miss.message, /params\.arguments\.b/);
  assert.match(miss.message, /recorded 40, got 41/);
  assert.equal(byId.get(3).result.content[0].text, "The sum of 2 and 40 is 42.");
  // Recorded once, asked three times: the last answer repeats, and stderr says so.
  assert.equal(byId.get(5).result.content[0].text, "The sum of 2 and 40 is 42.");
  assert.match(result.stderr, /repeat/);
  assert.match(byId.get(6).error.message, /name "no-such" was never recorded for tools\/call/);
  assert.equal(byId.get(null).error.code, -32700);
  assert.match(result.stderr, /never asked for/);
});

test("by default a request without its exact recording is a miss; --lenient opts into a same-tool stand-in, reported", async () => {
  const dir = tempDir();
  const cassette = path.join(dir, "strict.cassette.jsonl");
  const live = await run([
    ...SDK_SESSION,
    "--",
    ...CLI,
    "record",
    "-o",
    cassette,
    "--",
    ...EVERYTHING,
  ]);
  assert.equal(live.code, 0, live.stderr);
  const ask = (lenient: boolean) =>
    run([...CLI, "replay", ...(lenient ? ["--lenient"] : []), cassette], {
      input: [
        {
          jsonrpc: "2.0",
          id: 1,
          method: "initialize",
          params: {
            protocolVersion: "2025-11-25",
            capabilities: {},
            clientInfo: { name: "t", version: "1" },
          },
        },
        {
          jsonrpc: "2.0",
          id: 2,
          method: "tools/call",
          params: { name: "get-sum", arguments: { a: 3, b: 40 } },
        },
      ].map((message) => JSON.stringify(message)).join("\n") + "\n",
    });
  const lenient = await ask(true);
  assert.equal(lenient.code, 0, lenient.stderr);
  const standIn = lenient.stdout.trim().split("\n").map((line) => JSON.parse(line)).find((answer) =>
    answer.id === 2
  );
  assert.equal(standIn.result.content[0].text, "The sum of 2 and 40 is 42.");
  assert.match(lenient.stderr, /inexact match/);
  const strict = await ask(false);
  assert.equal(strict.code, 3, strict.stderr);
  const miss = strict.stdout.trim().split("\n").map((line) => JSON.parse(line)).find((answer) =>
    answer.id === 2
  );
  assert.equal(miss.error.code, -32001);
  assert.match(miss.error.message, /params\.arguments\.a \(recorded 2, got 3\)/);
});
