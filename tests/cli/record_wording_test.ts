/**
 * What `record` says about its mode, a folder that takes no files, and a
 * launch that lost the claim: each true, in one line.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { copyFileSync, existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { acquireClaim } from "../../src/claim/claim.ts";
import { CLI, EVERYTHING, ROOT, run, skipTest, tempDir } from "../helpers.ts";

const GOLDEN = path.join(ROOT, "examples/runners/node/cassettes/adds-two-numbers.cassette.jsonl");

test("record --help names the default it has, and a bad --mode is said to come from --mode", async () => {
  const help = await run([...CLI, "record", "--help"]);
  assert.equal(help.code, 0, help.stderr);
  const mode = help.stdout.split("\n").find((line) => line.includes("--mode MODE")) ?? "";
  assert.doesNotMatch(mode, /default: record/);
  assert.match(mode, /without it, every launch records, as all does/);

  const cassette = path.join(tempDir(), "c.cassette.jsonl");
  const bad = await run([
    ...CLI,
    "record",
    "--mode",
    "record",
    "-o",
    cassette,
    "--",
    ...EVERYTHING,
  ]);
  assert.equal(bad.code, 2, bad.stderr);
  assert.match(bad.stderr, /Unknown record mode "record" from --mode \(expected one of/);
  assert.doesNotMatch(bad.stderr, /from the code/);
});

test("record -o /proc/x.jsonl: the folder is there and takes no files, in one line", async (t) => {
  if (!existsSync("/proc/self")) return skipTest(t, "no /proc on this system");
  const refused = await run([
    ...CLI,
    "record",
    "-o",
    "/proc/x.cassette.jsonl",
    "--",
    ...EVERYTHING,
  ]);
  assert.equal(refused.code, 9, refused.stderr);
  assert.equal(refused.stderr.trim().split("\n").length, 1, refused.stderr);
  assert.match(
    refused.stderr,
    /\/proc\/x\.cassette\.jsonl\.claim: the folder \/proc does not take new files/,
  );
  assert.doesNotMatch(refused.stderr, /does not exist/);
});

test("record --mode all: a launch that loses the claim writes its start and end to --run-log", async () => {
  const dir = tempDir();
  const cassette = path.join(dir, "c.cassette.jsonl");
  copyFileSync(GOLDEN, cassette);
  const log = path.join(dir, "run.jsonl");
  const { claim } = await acquireClaim(cassette, { onHeld: "fail", group: "someone-else" });
  try {
    const lost = await run(
      [...CLI, "record", "--mode", "all", "--run-log", log, "-o", cassette, "--", ...EVERYTHING],
    );
    assert.equal(lost.code, 6, lost.stderr);
    const lines = readFileSync(log, "utf8").trim().split("\n").map((line) => JSON.parse(line));
    assert.deepEqual(lines.map((line) => [line.event, line.action, line.code]), [
      ["start", "record", undefined],
      ["end", "record", 6],
    ]);
    assert.match(lines[1].error, /is being written by pid \d+/);
  } finally {
    await claim.release();
  }
});
