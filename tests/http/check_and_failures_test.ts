/**
 * `check --url` over the Streamable HTTP client transport, and the
 * recorder's behaviour when the upstream is unreachable: 502 with a
 * JSON-RPC error body, the failure kept in the cassette, serving goes on.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { CLI, run, tempDir } from "../helpers.ts";
import {
  cassetteLines,
  freePort,
  startBackground,
  startEverythingHttp,
  URL_LINE,
} from "./http_helpers.ts";

test("check --url passes against server-everything over Streamable HTTP and exits 7 when nothing listens", async () => {
  const server = await startEverythingHttp();
  try {
    const result = await run([...CLI, "check", "--url", server.url]);
    assert.equal(result.code, 0, result.stderr + result.stdout);
    assert.match(result.stdout, /mcp-servers\/everything/);
    assert.match(result.stdout, /result: PASS/);
  } finally {
    await server.stop();
  }
  const dead = await run([...CLI, "check", "--url", `http://127.0.0.1:${await freePort()}/mcp`]);
  assert.equal(dead.code, 7, dead.stderr + dead.stdout);
});

test("record --url with the upstream down: 502 + JSON-RPC error, cassette keeps upstream-error, recorder keeps serving", async () => {
  const cassette = path.join(tempDir(), "down.cassette.jsonl");
  const recorder = await startBackground(
    [...CLI, "record", "-o", cassette, "--url", `http://127.0.0.1:${await freePort()}/mcp`],
    URL_LINE,
  );
  const body = JSON.stringify({
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: {
      protocolVersion: "2025-11-25",
      capabilities: {},
      clientInfo: { name: "t", version: "1" },
    },
  });
  const headers = {
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
    authorization: "Bearer s3cr3t-token",
  };
  for (let i = 0; i < 2; i++) {
    const response = await fetch(recorder.found, { method: "POST", headers, body });
    assert.equal(response.status, 502);
    const answer = await response.json();
    assert.equal(answer.id, 1);
    assert.equal(typeof answer.error.code, "number");
  }
  assert.equal(await recorder.stop(), 0);
  const text = readFileSync(cassette, "utf8");
  assert.ok(!text.includes("s3cr3t-token"), "credential values never reach the disk");
  const lines = cassetteLines(text);
  assert.equal(lines[0].era, undefined, "nothing succeeded: no era");
  const ends = lines.filter((entry) => entry.type === "http-end");
  assert.equal(ends.length, 2);
  assert.ok(ends.every((entry) => entry.reason === "upstream-error"));
  const request = lines.find((entry) => entry.type === "http-request")!;
  assert.deepEqual(request.credentials, ["authorization"]);
});
