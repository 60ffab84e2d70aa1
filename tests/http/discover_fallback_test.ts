/**
 * The era of an HTTP recording is the one the client and server negotiated,
 * not the first request answered: a server that answers `server/discover`
 * offering only 2025 versions (it knows the probe, not the 2026-07-28 era)
 * makes the official SDK v2 client in `auto` mode fall back to
 * `initialize`, so the cassette is of the session-based era and its replay
 * must take that client's `initialize`, and `lint` must see the session
 * opened by `initialize`. The same over stdio, where replay
 * tells the era from the cassette (the v2 client probes on a child of its
 * own, a session of its own in the cassette), and serves it over HTTP in
 * that era.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { CLI, DENO, ROOT, run, tempDir } from "../helpers.ts";
import { cassetteLines, startBackground, URL_LINE } from "./http_helpers.ts";

const SERVER = [
  DENO,
  "run",
  "-A",
  "--no-check",
  path.join(ROOT, "tests/fixtures/http/legacy_discover_server.ts"),
];
const V2_AUTO = [
  DENO,
  "run",
  "-A",
  "--no-check",
  path.join(ROOT, "tests/fixtures/http/v2_auto_session.ts"),
];

async function session(url: string | string[]): Promise<Record<string, unknown>> {
  const result = await run([
    ...V2_AUTO,
    ...(typeof url === "string" ? ["--url", url] : ["--", ...url]),
  ]);
  assert.equal(result.code, 0, result.stderr);
  return JSON.parse(result.stdout);
}

/** Records the v2 client against the fixture (with `flags`) through `record --url`. */
async function recordThrough(cassette: string, flags: string[]) {
  const server = await startBackground([...SERVER, ...flags], URL_LINE);
  try {
    const recorder = await startBackground(
      [...CLI, "record", "-o", cassette, "--url", server.found],
      URL_LINE,
    );
    const live = await session(recorder.found);
    assert.equal(await recorder.stop(), 0, recorder.output());
    return live;
  } finally {
    await server.stop();
  }
}

async function replayed(cassette: string) {
  const replay = await startBackground(
    [...CLI, "replay", cassette, "--listen", "127.0.0.1:0"],
    URL_LINE,
  );
  try {
    return await session(replay.found);
  } finally {
    await replay.stop();
  }
}

/** `lint` finds the header's era to be the handshake's (MCL001 would say otherwise). */
async function lintsClean(cassette: string) {
  const lint = await run([...CLI, "lint", cassette]);
  assert.equal(lint.code, 0, lint.stdout + lint.stderr);
}

for (
  const [what, flags] of [
    ["offering only 2025 versions", []],
    ["with -32601", ["--discover-error"]],
  ] as const
) {
  test(`server/discover answered ${what}: the recording is legacy and replays to the same client`, async () => {
    const cassette = path.join(tempDir(), "fallback.cassette.jsonl");
    const live = await recordThrough(cassette, [...flags]);
    assert.equal(live.era, "legacy", "the client fell back to initialize");
    const lines = cassetteLines(readFileSync(cassette, "utf8"));
    assert.equal(lines[0].era, "legacy", JSON.stringify(lines[0]));
    assert.equal(lines[0].protocolVersion, "2025-11-25");
    assert.deepEqual(await replayed(cassette), live);
    await lintsClean(cassette);
  });
}

test("over stdio, server/discover answered offering only 2025 versions: replay, on stdio and over HTTP, takes the client's initialize", async () => {
  const cassette = path.join(tempDir(), "fallback-stdio.cassette.jsonl");
  const live = await session([...CLI, "record", "-o", cassette, "--", ...SERVER, "--stdio"]);
  assert.equal(live.era, "legacy", "the client fell back to initialize");
  const methods = cassetteLines(readFileSync(cassette, "utf8"))
    .filter((line) => line.dir === "c2s")
    .map((line) => (line.msg as { method?: string }).method);
  assert.deepEqual(methods.slice(0, 2), ["server/discover", "initialize"]);
  assert.deepEqual(await session([...CLI, "replay", cassette]), live);
  assert.deepEqual(await replayed(cassette), live);
  await lintsClean(cassette);
});
