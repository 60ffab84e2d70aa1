/**
 * The legacy era over Streamable HTTP with real parts: the official SDK v1
 * client drives server-everything (streamableHttp mode) through
 * `record --url`, then the same script drives `replay --listen`, and every
 * result must be identical — plain calls, and the server-initiated traffic
 * (sampling, elicitation, roots, progress) that rides SSE streams.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { assertSameSession, CLI, run, SDK_SESSION, tempDir } from "../helpers.ts";
import { cassetteLines, startBackground, startEverythingHttp, URL_LINE } from "./http_helpers.ts";

type Session = { results: Record<string, unknown>; asked: unknown[]; progress: unknown[] };

async function recordAndReplay(
  scenario: string,
  recordFlags: string[] = [],
): Promise<{ live: Session; replayed: Session; cassette: string }> {
  const dir = tempDir();
  const cassette = path.join(dir, `${scenario}.cassette.jsonl`);
  const upstream = await startEverythingHttp();
  try {
    const recorder = await startBackground([
      ...CLI,
      "record",
      "-o",
      cassette,
      ...recordFlags,
      "--url",
      upstream.url,
    ], URL_LINE);
    assert.equal(new URL(recorder.found).pathname, "/mcp", "the proxy URL keeps the upstream path");
    const live = await run([...SDK_SESSION, "--scenario", scenario, "--url", recorder.found]);
    assert.equal(live.code, 0, live.stderr);
    assert.equal(await recorder.stop(), 0, recorder.output());
    const replay = await startBackground(
      [...CLI, "replay", cassette, "--listen", "127.0.0.1:0"],
      URL_LINE,
    );
    const replayed = await run([...SDK_SESSION, "--scenario", scenario, "--url", replay.found]);
    await replay.stop();
    assert.equal(replayed.code, 0, replayed.stderr);
    return { live: JSON.parse(live.stdout), replayed: JSON.parse(replayed.stdout), cassette };
  } finally {
    await upstream.stop();
  }
}

test("v1 client: identical results from record --url and replay --listen (server-everything, basic)", async () => {
  const { live, replayed, cassette } = await recordAndReplay("basic");
  assert.equal(
    (live.results.sum as { content: { text: string }[] }).content[0].text,
    "The sum of 2 and 40 is 42.",
  );
  assert.deepEqual(replayed, live);
  const lines = cassetteLines(readFileSync(cassette, "utf8"));
  assert.equal(
    existsSync(`${cassette}.pending`),
    false,
    "the held frames' side file is gone once the header is written",
  );
  const header = lines[0];
  assert.equal(header.transport, "http");
  assert.equal(header.era, "legacy");
  const starts = lines.filter((entry) => entry.type === "session" && entry.event === "start");
  assert.equal(starts.length, 1);
  // SIGINT finished the cassette: the open session was ended, not torn off.
  assert.ok(
    lines.some((entry) =>
      entry.type === "session" && entry.event === "end" && entry.reason === "recorder-stopped"
    ),
  );
  assert.equal(typeof starts[0].sessionId, "string");
  const requests = lines.filter((entry) => entry.type === "http-request");
  assert.ok(
    requests.some((entry) => entry.method === "GET"),
    "the standalone GET stream was recorded",
  );
  // The priming event of 2025-11-25 servers is kept as an event of its own.
  assert.ok(
    lines.some((entry) =>
      entry.type === "sse-event" && (entry.sse as { id?: string }).id !== undefined
    ),
  );
});

test("v1 client: sampling, elicitation, roots and progress over SSE replay identically", async () => {
  // The elicitation answer holds an e-mail address: keep it, so replay can show it back unchanged.
  const { live, replayed, cassette } = await recordAndReplay("initiated", ["--no-detectors"]);
  assert.equal(live.asked.length, 3, JSON.stringify(live.asked));
  assert.ok(live.progress.length >= 1);
  assertSameSession(replayed, live, cassette);
});
