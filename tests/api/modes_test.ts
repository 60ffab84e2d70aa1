/**
 * Record modes, claims and bad input, through the library and the CLI.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { copyFileSync, existsSync, readFileSync, utimesSync, writeFileSync } from "node:fs";
import path from "node:path";
import {
  ClaimError,
  ClaimFileError,
  loadCassette,
  resolveRecordMode,
  startCassette,
  UsageError,
} from "../../mod.ts";
import { acquireClaim, claimPath } from "../../src/claim/claim.ts";
import { CLI, DENO, EVERYTHING, ROOT, run, tempDir } from "../helpers.ts";

const GOLDEN = path.join(ROOT, "examples/runners/node/cassettes/adds-two-numbers.cassette.jsonl");
const INIT = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: {
    protocolVersion: "2025-11-25",
    capabilities: {},
    clientInfo: { name: "t", version: "1" },
  },
});

test("an unknown mode name is one clear error, from code, env and CLI (exit 2)", async () => {
  assert.throws(
    () => resolveRecordMode("sometimes"),
    (error: unknown) =>
      error instanceof UsageError &&
      /Unknown record mode "sometimes" from the code \(expected one of once, none, all, new_episodes\)/
        .test(error.message),
  );
  assert.equal(resolveRecordMode("new-episodes"), "new_episodes");
  const cassette = path.join(tempDir(), "c.cassette.jsonl");
  const cli = await run([
    ...CLI,
    "record",
    "-o",
    cassette,
    "--mode",
    "sometimes",
    "--",
    ...EVERYTHING,
  ]);
  assert.equal(cli.code, 2);
  assert.match(cli.stderr, /Unknown record mode "sometimes"/);
  const env = await run([...CLI, "record", "-o", cassette, "--mode", "once", "--", ...EVERYTHING], {
    env: { MCP_CASSETTE_MODE: "bogus" },
  });
  assert.equal(env.code, 2);
  assert.match(env.stderr, /from the MCP_CASSETTE_MODE environment variable/);
});

test("a cassette in a folder that does not exist is one clear error (exit 2 on the CLI)", async () => {
  const cassette = path.join(tempDir(), "no", "such", "c.cassette.jsonl");
  await assert.rejects(
    startCassette({ path: cassette, server: EVERYTHING }),
    /the folder .*no\/such does not exist/,
  );
  const cli = await run([...CLI, "record", "-o", cassette, "--", ...EVERYTHING]);
  assert.equal(cli.code, 2);
  assert.match(cli.stderr, /the folder .*no\/such does not exist/);
});

test("a garbage claim file is one clear error (exit 2 on the CLI)", async () => {
  const cassette = path.join(tempDir(), "c.cassette.jsonl");
  writeFileSync(claimPath(cassette), "this is not a claim");
  await assert.rejects(
    acquireClaim(cassette, { onHeld: "fail" }),
    (error: unknown) => error instanceof ClaimFileError,
  );
  const cli = await run([...CLI, "record", "-o", cassette, "--", ...EVERYTHING]);
  assert.equal(cli.code, 2, cli.stderr);
  assert.match(cli.stderr, /claim file .* is not a claim \(not JSON\)/);
});

test("mode none: a missing cassette says recording is forbidden; MCP_CASSETTE_MODE beats the code", async () => {
  const cassette = path.join(tempDir(), "c.cassette.jsonl");
  await assert.rejects(
    startCassette({ path: cassette, mode: "none", server: EVERYTHING }),
    /mode "none" forbids recording/,
  );
  const env = await run([...CLI, "record", "-o", cassette, "--mode", "all", "--", ...EVERYTHING], {
    env: { MCP_CASSETTE_MODE: "none" },
  });
  assert.equal(env.code, 2);
  assert.match(env.stderr, /forbids recording/);
  assert.equal(existsSync(cassette), false);
});

test("mode all and new_episodes fail fast on a live claim (exit 6); --force breaks it with a warning", async () => {
  const dir = tempDir();
  const cassette = path.join(dir, "c.cassette.jsonl");
  copyFileSync(GOLDEN, cassette);
  const { claim } = await acquireClaim(cassette, { onHeld: "fail", group: "someone-else" });
  try {
    await assert.rejects(
      acquireClaim(cassette, { onHeld: "fail", group: "me" }),
      (error: unknown) => error instanceof ClaimError,
    );
    const all = await run([...CLI, "record", "-o", cassette, "--mode", "all", "--", ...EVERYTHING]);
    assert.equal(all.code, 6, all.stderr);
    assert.match(all.stderr, /is being written by pid \d+/);
    const episodes = await run([...CLI, "replay", cassette, "--new-episodes", "--", ...EVERYTHING]);
    assert.equal(episodes.code, 6, episodes.stderr);
    const forced = await run([...CLI, "record", "-o", cassette, "--force", "--", ...EVERYTHING], {
      input: INIT + "\n",
    });
    assert.equal(forced.code, 0, forced.stderr);
    assert.match(forced.stderr, /warning: breaking the live claim/);
  } finally {
    await claim.release();
  }
  assert.equal(existsSync(claimPath(cassette)), false);
});

test("a claim whose owner died is taken over", async () => {
  const cassette = path.join(tempDir(), "c.cassette.jsonl");
  const dead = await run([DENO, "eval", "console.log(Deno.pid)"]);
  const pid = Number(dead.stdout.trim());
  const host = (await import("node:os")).hostname();
  writeFileSync(claimPath(cassette), JSON.stringify({ pid, host, time: new Date().toISOString() }));
  const result = await run([...CLI, "record", "-o", cassette, "--", ...EVERYTHING], {
    input: INIT + "\n",
  });
  assert.equal(result.code, 0, result.stderr);
  assert.match(
    result.stderr,
    new RegExp(`taking over the claim .*its owner \\(pid ${pid}\\) is gone`),
  );
  assert.equal(existsSync(claimPath(cassette)), false);
  assert.equal((await loadCassette(cassette)).header.transport, "stdio");
});

test("two launches of one recording in quick succession both land in a cassette that replays", async () => {
  const cassette = path.join(tempDir(), "c.cassette.jsonl");
  const launch = ["record", "-o", cassette, "--mode", "once", "--group", "g1", "--", ...EVERYTHING];
  const ping = JSON.stringify({ jsonrpc: "2.0", id: 2, method: "ping" });
  // Like the SDK v2 client: a short probe, then the real session, which starts before the probe's claim is gone.
  const [first, second] = await Promise.all([
    run([...CLI, ...launch], { input: ping + "\n" }),
    new Promise((resolve) => setTimeout(resolve, 150)).then(() =>
      run([...CLI, ...launch], { input: INIT + "\n" + ping + "\n" })
    ),
  ]);
  assert.equal(first.code, 0, first.stderr);
  assert.equal(second.code, 0, second.stderr);
  const loaded = await loadCassette(cassette);
  const sessions = new Set(loaded.entries.map((entry) => entry.session ?? "default"));
  assert.equal(sessions.size, 2);
  const replay = await run([...CLI, "replay", cassette], { input: INIT + "\n" + ping + "\n" });
  assert.equal(replay.code, 0, replay.stderr);
  assert.equal(replay.stdout.trim().split("\n").length, 2);
});

test("a re-record killed with SIGKILL leaves the old cassette intact; SIGTERM leaves no claim", async () => {
  const cassette = path.join(tempDir(), "c.cassette.jsonl");
  copyFileSync(GOLDEN, cassette);
  utimesSync(cassette, new Date(Date.now() - 3_600_000), new Date(Date.now() - 3_600_000));
  const before = readFileSync(cassette, "utf8");
  const { spawn } = await import("node:child_process");
  for (const signal of ["SIGKILL", "SIGTERM"] as const) {
    const child = spawn(CLI[0], [
      ...CLI.slice(1),
      "record",
      "-o",
      cassette,
      "--mode",
      "all",
      "--",
      ...EVERYTHING,
    ], {
      stdio: ["pipe", "pipe", "ignore"],
    });
    child.stdin.write(INIT + "\n");
    await new Promise<void>((resolve) => child.stdout.once("data", () => resolve()));
    assert.ok(existsSync(claimPath(cassette)));
    child.kill(signal);
    await new Promise((resolve) => child.on("close", resolve));
    if (signal === "SIGKILL") {
      assert.equal(readFileSync(cassette, "utf8"), before);
    } else {
      assert.equal(existsSync(claimPath(cassette)), false);
      assert.equal(existsSync(`${cassette}.partial`), false);
    }
  }
});
