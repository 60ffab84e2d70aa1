/**
 * The modern era (2026-07-28) with real parts: the official SDK v2 client,
 * pinned to 2026-07-28, talks to a dual-era server built with the SDK v2
 * server package — live, through `record`, and from `replay` — over HTTP and
 * over stdio, and across (an HTTP recording served on stdio, a stdio
 * recording served over HTTP). Every result must be identical.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { CLI, DENO, ROOT, run, tempDir } from "../helpers.ts";
import { cassetteLines, startBackground, URL_LINE } from "./http_helpers.ts";

const FIXTURE = [
  DENO,
  "run",
  "-A",
  "--no-check",
  path.join(ROOT, "tests/fixtures/http/dual_era_server.ts"),
];
const V2_SESSION = [
  DENO,
  "run",
  "-A",
  "--no-check",
  path.join(ROOT, "tests/fixtures/http/v2_session.ts"),
];

type Session = { results: Record<string, unknown>; asked: unknown[] };

async function session(args: string[]): Promise<Session> {
  const result = await run([...V2_SESSION, ...args]);
  assert.equal(result.code, 0, result.stderr);
  return JSON.parse(result.stdout);
}

async function overHttpReplay(cassette: string): Promise<Session> {
  const replay = await startBackground(
    [...CLI, "replay", cassette, "--listen", "127.0.0.1:0"],
    URL_LINE,
  );
  try {
    return await session(["--url", replay.found]);
  } finally {
    await replay.stop();
  }
}

function checkLiveShape(live: Session) {
  assert.equal((live.results.add as { content: { text: string }[] }).content[0].text, "42");
  assert.equal(
    (live.results.confirm as { content: { text: string }[] }).content[0].text,
    "Ada may deploy",
  );
  assert.deepEqual(live.asked, [{ method: "elicitation/create", message: "Who wants to deploy?" }]);
}

test("v2 client, modern era over HTTP: live through record --url, replay --listen, and the same cassette on stdio", async () => {
  const dir = tempDir();
  const cassette = path.join(dir, "modern-http.cassette.jsonl");
  const server = await startBackground([...FIXTURE, "--http", "0"], URL_LINE);
  let live: Session;
  try {
    const recorder = await startBackground([
      ...CLI,
      "record",
      "-o",
      cassette,
      "--url",
      server.found,
    ], URL_LINE);
    live = await session(["--url", recorder.found]);
    assert.equal(await recorder.stop(), 0, recorder.output());
  } finally {
    await server.stop();
  }
  checkLiveShape(live);
  const lines = cassetteLines(readFileSync(cassette, "utf8"));
  assert.equal(lines[0].era, "modern");
  assert.equal(lines[0].protocolVersion, "2026-07-28");
  // The input_required retry is a new request with inputResponses: recorded, and matched on replay below.
  const calls = lines.filter((e) =>
    e.type === "message" && e.dir === "c2s" &&
    (e.msg as { method?: string }).method === "tools/call"
  );
  assert.ok(calls.some((e) => JSON.stringify(e.msg).includes("inputResponses")));
  assert.ok(
    lines.every((e) => e.type !== "session" || e.event !== "start" || e.sessionId === undefined),
  );

  assert.deepEqual(await overHttpReplay(cassette), live);
  // Served on stdio: the client probes on one launch, connects on another.
  assert.deepEqual(await session(["--", ...CLI, "replay", cassette]), live);

  // The modern header rules, checked against the body, as the spec says.
  const replay = await startBackground(
    [...CLI, "replay", cassette, "--listen", "127.0.0.1:0"],
    URL_LINE,
  );
  try {
    const post = (headers: Record<string, string>, body: unknown) =>
      fetch(replay.found, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          ...headers,
        },
        body: JSON.stringify(body),
      });
    const meta = (version: string) => ({
      "io.modelcontextprotocol/protocolVersion": version,
      "io.modelcontextprotocol/clientCapabilities": {},
    });
    const call = {
      jsonrpc: "2.0",
      id: 7,
      method: "tools/call",
      params: { name: "add", arguments: { a: 2, b: 40 }, _meta: meta("2026-07-28") },
    };
    const mismatch = await post({
      "mcp-protocol-version": "2026-07-28",
      "mcp-method": "tools/list",
      "mcp-name": "add",
    }, call);
    assert.equal(mismatch.status, 400);
    assert.equal((await mismatch.json()).error.code, -32020);
    const wrongName = await post({
      "mcp-protocol-version": "2026-07-28",
      "mcp-method": "tools/call",
      "mcp-name": "echo",
    }, call);
    assert.equal(wrongName.status, 400);
    assert.equal((await wrongName.json()).error.code, -32020);
    const old = { ...call, params: { ...call.params, _meta: meta("2099-01-01") } };
    const unsupported = await post({
      "mcp-protocol-version": "2099-01-01",
      "mcp-method": "tools/call",
      "mcp-name": "add",
    }, old);
    assert.equal(unsupported.status, 400);
    const unsupportedBody = await unsupported.json();
    assert.equal(unsupportedBody.error.code, -32022);
    assert.equal(unsupportedBody.error.data.requested, "2099-01-01");
    assert.ok(unsupportedBody.error.data.supported.includes("2026-07-28"));
    const unknown = await post({ "mcp-protocol-version": "2026-07-28", "mcp-method": "no/such" }, {
      ...call,
      method: "no/such",
    });
    assert.equal(unknown.status, 404);
    assert.equal((await unknown.json()).error.code, -32601);
    // Base64-encoded Mcp-Name is decoded before comparison; a valid call is served as recorded.
    const encoded = await post({
      "mcp-protocol-version": "2026-07-28",
      "mcp-method": "tools/call",
      "mcp-name": `=?base64?${btoa("add")}?=`,
    }, call);
    assert.equal(encoded.status, 200);
    assert.match(await encoded.text(), /"42"/);
    assert.equal(
      (await fetch(replay.found, { headers: { accept: "text/event-stream" } })).status,
      405,
    );
    assert.equal((await fetch(replay.found, { method: "DELETE" })).status, 405);
  } finally {
    await replay.stop();
  }
});

test("v2 client, modern era over stdio: two launches record into one working cassette, replayed on stdio and over HTTP", async () => {
  const dir = tempDir();
  const cassette = path.join(dir, "modern-stdio.cassette.jsonl");
  const live = await session(["--", ...CLI, "record", "-o", cassette, "--", ...FIXTURE, "--stdio"]);
  checkLiveShape(live);
  const lines = cassetteLines(readFileSync(cassette, "utf8"));
  const sessions = new Set(lines.slice(1).map((e) => e.session ?? "default"));
  assert.equal(
    sessions.size,
    2,
    "the discover probe's launch and the real launch are two sessions of one cassette",
  );
  assert.deepEqual(await session(["--", ...CLI, "replay", cassette]), live);
  assert.deepEqual(await overHttpReplay(cassette), live);
  // A session-based client against this stateless-era cassette: the miss names both eras.
  const legacy = await run([...CLI, "replay", cassette], {
    input: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: {
        protocolVersion: "2025-11-25",
        capabilities: {},
        clientInfo: { name: "old", version: "1" },
      },
    }) + "\n",
  });
  assert.equal(legacy.code, 3, legacy.stderr);
  const refusal = JSON.parse(legacy.stdout.trim().split("\n").at(-1)!);
  assert.equal(refusal.error.code, -32001);
  assert.match(
    refusal.error.message,
    /recorded in the stateless 2026-07-28 era \(server\/discover\), and this client speaks the session-based era/,
  );
  rmSync(dir, { recursive: true, force: true });
});
