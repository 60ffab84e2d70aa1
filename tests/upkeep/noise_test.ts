/**
 * `verify` tells noise from regressions: a server of ours with no SDK
 * answers with a fresh random nonce on every call (noise) and with
 * $STAMP_VALUE (stable for one build). Recorded through the official SDK
 * client, then verified against the live server.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { startCassette } from "../../mod.ts";
import { Client, StdioClientTransport } from "../sdk.ts";
import { CLI, NODE, ROOT, run, tempDir } from "../helpers.ts";

const SERVER = [NODE, path.join(ROOT, "tests/fixtures/upkeep/nonce_server.mjs")];

async function recorded(): Promise<string> {
  const cassette = path.join(tempDir(), "noise.cassette.jsonl");
  const server = await startCassette({ path: cassette, mode: "all", server: SERVER });
  const client = new Client({ name: "noise-test", version: "1.0.0" });
  await client.connect(
    new StdioClientTransport({
      command: server.command,
      args: server.args,
      env: { ...process.env as Record<string, string>, STAMP_VALUE: "v1" },
    }),
  );
  try {
    await client.callTool({ name: "stamp", arguments: { label: "a" } });
  } finally {
    await client.close();
  }
  await server.finish();
  return cassette;
}

test("verify: a nonce that moves between two live runs is noise, reported apart and not graded", async () => {
  const cassette = await recorded();
  const before = readFileSync(cassette, "utf8");
  const same = await run([...CLI, "verify", cassette, "--", ...SERVER], {
    env: { STAMP_VALUE: "v1" },
  });
  assert.equal(same.code, 0, same.stdout + same.stderr);
  assert.match(same.stdout, /NOISE #\d+ tools\/call stamp {2}result\.content\[0\]\.text\.nonce/);
  assert.match(same.stdout, /keep it out: --ignore-path result\.content\[0\]\.text\.nonce/);
  assert.match(same.stdout, /2 passed, 0 failed/);
  const json = await run([...CLI, "verify", cassette, "--json", "--", ...SERVER], {
    env: { STAMP_VALUE: "v1" },
  });
  const report = JSON.parse(json.stdout);
  assert.deepEqual(report.noise.map((item: { path: string }) => item.path), [
    "result.content[0].text.nonce",
  ]);
  assert.equal(readFileSync(cassette, "utf8"), before);
});

test("verify: a difference the same in both runs is still a regression; --noise-runs 1 grades the nonce too", async () => {
  const cassette = await recorded();
  const changed = await run(
    [...CLI, "verify", cassette, "--fail-on-regression", "--", ...SERVER],
    { env: { STAMP_VALUE: "v2" } },
  );
  assert.equal(changed.code, 1, changed.stdout + changed.stderr);
  assert.match(changed.stdout, /FAIL #\d+ tools\/call stamp/);
  assert.match(changed.stdout, /text\.value/);
  assert.match(changed.stdout, /NOISE .*text\.nonce/);
  const single = await run(
    [...CLI, "verify", cassette, "--noise-runs", "1", "--fail-on-regression", "--", ...SERVER],
    { env: { STAMP_VALUE: "v1" } },
  );
  assert.equal(single.code, 1, single.stdout + single.stderr);
  assert.match(single.stdout, /text\.nonce/);
  assert.doesNotMatch(single.stdout, /NOISE/);
  const bad = await run([...CLI, "verify", cassette, "--noise-runs", "0", "--", ...SERVER]);
  assert.equal(bad.code, 2, bad.stderr);
  assert.equal(bad.stderr.trim().split("\n").length, 1);
});

test("verify --learn-noise writes the noise under [verify] ignore-path, and the next run needs no second run", async () => {
  const cassette = await recorded();
  const folder = path.dirname(cassette);
  const learn = await run([...CLI, "verify", cassette, "--learn-noise", "--", ...SERVER], {
    cwd: folder,
    env: { STAMP_VALUE: "v1" },
  });
  assert.equal(learn.code, 0, learn.stdout + learn.stderr);
  assert.equal(
    readFileSync(path.join(folder, "mcp-cassette.toml"), "utf8"),
    '[verify]\nignore-path = ["result.content[0].text.nonce"]\n',
  );
  const next = await run(
    [...CLI, "verify", cassette, "--noise-runs", "1", "--fail-on-regression", "--", ...SERVER],
    { cwd: folder, env: { STAMP_VALUE: "v1" } },
  );
  assert.equal(next.code, 0, next.stdout + next.stderr);
  assert.match(next.stdout, /2 passed, 0 failed/);
});
