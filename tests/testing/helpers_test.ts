/**
 * The test helpers around a real replay and the official SDK client: the
 * cassette folder is created when missing, a test that fails before closing
 * its client does not wait for the replay it left running (it is ended), and
 * the typed `replay` options reach the replay process.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { copyFileSync, existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import process from "node:process";
import { Client, StdioClientTransport } from "../sdk.ts";
import { startCassette, UsageError } from "../../mod.ts";
import type { ReplayFlags } from "../../mod.ts";
import { cassetteForTest, finishAfterTest, withCassette } from "../../src/testing/mod.ts";
import { runtime } from "../../src/runtime/mod.ts";
import { BUN_BIN } from "../dist/_runtimes.ts";
import { DENO, EVERYTHING, ROOT, run, tempDir } from "../helpers.ts";

/** A committed cassette of server-everything's get-sum (2 + 40). */
const SUM_CASSETTE = path.join(
  ROOT,
  "examples/runners/node/cassettes/adds-two-numbers.cassette.jsonl",
);

async function connect(server: { command: string; args: string[] }) {
  const transport = new StdioClientTransport({
    command: server.command,
    args: server.args,
    stderr: "ignore",
  });
  const client = new Client({ name: "helpers-test", version: "1.0.0" });
  await client.connect(transport);
  return { client, transport };
}

test("helpers: the cassette folder is created when it is missing", async () => {
  const work = tempDir("mcp-cassette-helpers-");
  try {
    const dir = path.join(work, "not", "there", "yet");
    const server = await cassetteForTest(["records somewhere new"], {
      dir,
      mode: "once",
      server: EVERYTHING,
    });
    assert.ok(existsSync(dir), `${dir} was not created`);
    assert.equal(server.action, "record");
    assert.equal(server.path, path.join(dir, "records-somewhere-new.cassette.jsonl"));
    const result = await server.finish(); // no client came: nothing to wait for
    assert.deepEqual(result.launches, []);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
});

test("helpers: a test failing before it closes its client ends the replay at once", async () => {
  const work = tempDir("mcp-cassette-helpers-");
  try {
    copyFileSync(SUM_CASSETTE, path.join(work, "fails-early.cassette.jsonl"));
    let pid: number | undefined;
    const started = Date.now();
    const body = withCassette("fails early", { dir: work, mode: "none" }, async (server) => {
      const { client, transport } = await connect(server);
      pid = transport.pid ?? undefined;
      const result = await client.callTool({ name: "get-sum", arguments: { a: 2, b: 40 } });
      // The failed assertion: the client is never closed.
      assert.deepEqual(result.content, [{ type: "text", text: "a different sum" }]);
    });
    await assert.rejects(body, (error: Error) => {
      assert.match(error.message, /a different sum/, "the body's own error comes through");
      return true;
    });
    const elapsed = Date.now() - started;
    assert.ok(pid, "the client started the replay");
    assert.equal(runtime.isProcessAlive(pid), false, `the replay (pid ${pid}) is still running`);
    // 10 s was the old wait for the replay the client left open; measured here ≈ 0.3-0.6 s.
    assert.ok(elapsed < 8_000, `took ${elapsed} ms`);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
});

test("helpers: a passing test that never closes its client fails, naming the cassette", async () => {
  const work = tempDir("mcp-cassette-helpers-");
  try {
    const cassette = path.join(work, "never-closes.cassette.jsonl");
    copyFileSync(SUM_CASSETTE, cassette);
    const server = await cassetteForTest(["never closes"], { dir: work, mode: "none" });
    const { client } = await connect(server);
    try {
      await client.callTool({ name: "get-sum", arguments: { a: 2, b: 40 } });
      // Finished while the client is still connected: a short wait stands in for the 10 s one.
      const result = await server.finish({ waitMs: 300 });
      assert.deepEqual(result.launches, [{ action: "replay" }]);
      await assert.rejects(
        finishAfterTest(server, false),
        (error: Error) =>
          error instanceof UsageError && error.message.includes(cassette) &&
          /did not report how it ended/.test(error.message),
      );
    } finally {
      await client.close();
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
});

test("helpers: a node:test or vitest test that fails before closing its client ends at once, with its own error (bun test, deno test, vitest)", async () => {
  const work = tempDir("mcp-cassette-helpers-");
  try {
    const cassettes = path.join(work, "cassettes");
    mkdirSync(cassettes);
    copyFileSync(SUM_CASSETTE, path.join(cassettes, "fails-early.cassette.jsonl"));
    const file = path.join(ROOT, "tests/fixtures/testing/fails_early.ts");
    const vitest = path.join(ROOT, "node_modules", ".bin", "vitest");
    const vitestRoot = path.join(ROOT, "tests/fixtures/testing/vitest");
    const runners: [string, string[]][] = [
      ["bun test", [BUN_BIN, "test", file]],
      ["deno test", [DENO, "test", "-A", "--no-check", file]],
      ["vitest", [BUN_BIN, "--bun", vitest, "run", "--root", vitestRoot]],
    ];
    for (const [runner, command] of runners) {
      const started = Date.now();
      const result = await run(command, { env: { HELPERS_CASSETTES: cassettes } });
      const elapsed = Date.now() - started;
      const output = result.stdout + result.stderr;
      assert.notEqual(result.code, 0, `${runner}: the failing test passed\n${output}`);
      assert.match(output, /a different sum/, `${runner}: ${output}`);
      assert.doesNotMatch(output, /ReplayMissError/, `${runner}: ${output}`);
      // 10 s was the old wait in t.after; measured here ≈ 1 s.
      assert.ok(elapsed < 9_000, `${runner} took ${elapsed} ms`);
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
});

test("startCassette: typed replay options reach the replay; bad ones are a UsageError naming the option", async () => {
  const work = tempDir("mcp-cassette-helpers-");
  try {
    const faults = path.join(work, "faults.json");
    writeFileSync(
      faults,
      JSON.stringify({
        faults: [{
          match: { tool: "get-sum" },
          fault: { kind: "error", code: -32000, message: "rate limited" },
        }],
      }),
    );
    const server = await startCassette({
      path: SUM_CASSETTE,
      mode: "none",
      replay: { faults: path.relative(process.cwd(), faults), strict: true, quiet: true },
    });
    assert.ok(server.args.includes("--strict"), server.args.join(" "));
    assert.equal(server.args[server.args.indexOf("--faults") + 1], faults);
    const { client } = await connect(server);
    try {
      await assert.rejects(
        client.callTool({ name: "get-sum", arguments: { a: 2, b: 40 } }),
        /rate limited/,
      );
    } finally {
      await client.close();
    }
    await server.finish();

    const paced = await startCassette({
      path: SUM_CASSETTE,
      mode: "none",
      replay: { paceScale: 2 },
    });
    assert.deepEqual(
      paced.args.slice(paced.args.indexOf("--pace")),
      ["--pace", "recorded", "--pace-scale", "2"],
    );
    await paced.finish();

    for (
      const [replay, named] of [
        [{ pace: "fast" }, /replay\.pace/],
        [{ paceCapMs: -1 }, /replay\.paceCapMs/],
        [{ seed: 1.5 }, /replay\.seed/],
        [{ answerTimeoutMs: 0 }, /replay\.answerTimeoutMs/],
      ] as const
    ) {
      await assert.rejects(
        startCassette({
          path: SUM_CASSETTE,
          mode: "none",
          replay: replay as unknown as ReplayFlags,
        }),
        (error: Error) => error instanceof UsageError && named.test(error.message),
      );
    }
    await assert.rejects(
      startCassette({
        path: SUM_CASSETTE,
        mode: "none",
        transport: "http",
        replay: { strict: true },
      }),
      /stdio replay/,
    );
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
});
