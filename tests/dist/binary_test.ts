/**
 * The standalone executable for this host: the SDK client records the
 * reference server through it and replays the cassette through it, with
 * identical results; and the binary restarts itself as the demo's servers
 * (runtime.selfCommand), which only works if it knows it is compiled.
 *
 * CI passes the binary it built in MCP_CASSETTE_BINARY; otherwise the test
 * compiles one with Bun, offline. The modules the CLI loads only when a run
 * needs them (HTTP replay, other tools' cassettes) must be in the binary too.
 */
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { FOREIGN, initializeRequest, ROOT, run, tempDir } from "../helpers.ts";
import { startBackground } from "../http/http_helpers.ts";
import { hostBinary, overridesInName, recordWith, replayWith } from "./_runtimes.ts";

const NAME = `compiled binary${overridesInName("MCP_CASSETTE_BINARY")}: --version, ` +
  "record → replay with the SDK client, and the demo restarting itself";
const work = tempDir("mcp-cassette-bin-");
after(() => rmSync(work, { recursive: true, force: true }));
let built: Promise<string> | undefined;
const binaryOnce = () => built ??= hostBinary(work);

test(NAME, async () => {
  const binary = await binaryOnce();

  const version = await run([binary, "--version"], { cwd: work });
  assert.equal(version.code, 0, version.stderr);
  assert.match(version.stdout, /^mcp-cassette \d+\.\d+\.\d+/);

  const cassette = path.join(work, "binary.cassette.jsonl");
  const recorded = await recordWith([binary], cassette);
  assert.deepEqual(await replayWith([binary], cassette), recorded);

  // The modules replay loads lazily are in the binary too (the test helpers' --run-log path).
  const runLog = path.join(work, "run.jsonl");
  const logged = await run([binary, "replay", cassette, "--run-log", runLog], {
    cwd: work,
    input: "",
  });
  assert.equal(logged.code, 0, logged.stderr);
  assert.match(readFileSync(runLog, "utf8"), /"event":"end","action":"replay","code":0/);

  // Run from a folder with no cli.ts anywhere near: the binary must start itself.
  const demo = await run([binary, "demo", "--out", path.join(work, "demo")], { cwd: work });
  assert.equal(demo.code, 0, demo.stdout + demo.stderr);
  assert.match(demo.stdout, /demo OK/);
});

test(`compiled binary${overridesInName("MCP_CASSETTE_BINARY")}: replay --listen and another tool's cassette (modules loaded on demand)`, async () => {
  const binary = await binaryOnce();
  const cassette = path.join(ROOT, "examples", "cassettes", "weather.cassette.jsonl");
  const replay = await startBackground(
    [binary, "replay", "--listen", "0", cassette],
    /at (http:\/\/\S+)/,
  );
  try {
    const answer = await fetch(replay.found, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
      },
      body: JSON.stringify(initializeRequest(1)),
    });
    assert.equal(answer.status, 200, replay.output());
    assert.match(await answer.text(), /"protocolVersion"/);
  } finally {
    await replay.stop("SIGTERM");
  }
  const foreign = path.join(FOREIGN, "ts-mcp-cassette", "stdio-tape.jsonl");
  const inspected = await run([binary, "inspect", foreign], { cwd: work });
  assert.equal(inspected.code, 0, inspected.stdout + inspected.stderr);
  assert.match(inspected.stdout, /imported from ts-mcp-cassette/);
});
