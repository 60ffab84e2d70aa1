import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { cli, tempDir } from "../verify/_helpers.ts";
import { DENO } from "../helpers.ts";

test("demo: the healthy server grades A, the twin's value and structure changes are caught", async () => {
  const dir = tempDir();
  const result = await cli(["demo", "--out", dir]);
  assert.equal(result.code, 0, result.stderr + result.stdout);
  const lines = result.stdout.trimEnd().split("\n");
  assert.ok(lines.length < 40, `${lines.length} lines`);
  assert.ok(existsSync(join(dir, "demo.cassette.jsonl")));
  const [healthy, twin] = result.stdout.split("== verify against the REGRESSED");
  assert.doesNotMatch(healthy, /FAIL/);
  assert.match(healthy, /grade A \(100\.0\/100\)/);
  assert.match(twin, /FAIL #3 tools\/call get_weather {2}structure-change/);
  assert.match(twin, /FAIL #4 tools\/call convert_currency {2}value-change/);
  assert.match(twin, /grade [B-F] /);
  assert.match(lines.at(-1)!, /^demo OK: /);
});

test("demo --serve runs a demo server; an unknown variant is bad input", async () => {
  const bad = await cli(["demo", "--serve", "sideways"]);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /--serve must be one of healthy, regressed/);
  const check = await cli([
    "check",
    "--",
    DENO,
    "run",
    "-A",
    "--no-check",
    "cli.ts",
    "demo",
    "--serve",
    "regressed",
  ]);
  assert.equal(check.code, 0, check.stderr);
  assert.match(check.stdout, /server: travel-helper 1\.4\.0/);
});

test("demo removes the temp folder it made; with --keep it keeps it and says where", async () => {
  // TMPDIR is where the demo makes its folder: a fresh one shows what it left.
  const tmp = tempDir();
  const removed = await cli(["demo"], { TMPDIR: tmp, TMP: tmp, TEMP: tmp });
  assert.equal(removed.code, 0, removed.stderr + removed.stdout);
  assert.match(removed.stdout, /temp folder removed at the end; --keep keeps it/);
  assert.deepEqual(readdirSync(tmp), []);

  const kept = await cli(["demo", "--keep"], { TMPDIR: tmp, TMP: tmp, TEMP: tmp });
  assert.equal(kept.code, 0, kept.stderr + kept.stdout);
  const [folder] = readdirSync(tmp);
  assert.match(folder ?? "", /^mcp-cassette-demo-/);
  const cassette = join(tmp, folder, "demo.cassette.jsonl");
  assert.ok(kept.stdout.includes(`into ${cassette}`), kept.stdout.split("\n")[0]);
  assert.ok(existsSync(cassette));
});
