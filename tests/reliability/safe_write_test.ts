/**
 * The one module every writer goes through (src/files/safe_write.ts), on
 * real files and real symbolic links: a target that turns into a link while
 * its side file is written is refused at the rename, and an exclusive create
 * never follows a link, dangling or not.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { lstatSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { createExclusive, SideFile, writeFileSafely } from "../../src/files/safe_write.ts";
import { skipTest, tempDir } from "../helpers.ts";

const VICTIM_TEXT = "precious\n";

test("a target that became a link while its side file was written is refused, not replaced", async () => {
  const dir = tempDir("mcp-cassette-safe-");
  const target = path.join(dir, "report.json");
  const victim = path.join(dir, "victim.txt");
  writeFileSync(target, "old\n");
  writeFileSync(victim, VICTIM_TEXT);
  const side = await SideFile.open(target, { what: "the report" });
  side.write(new TextEncoder().encode("new\n"));
  rmSync(target);
  symlinkSync(victim, target);
  await assert.rejects(
    side.commit(),
    /Refusing to write the report .*report\.json: it is a symbolic link/,
  );
  assert.ok(lstatSync(target).isSymbolicLink(), "the link was replaced");
  assert.equal(readFileSync(victim, "utf8"), VICTIM_TEXT);
  assert.deepEqual(
    readdirSync(dir).sort(),
    ["report.json", "victim.txt"],
    "the side file was left",
  );
});

test("an exclusive create never follows a link, dangling or not", async () => {
  const dir = tempDir("mcp-cassette-safe-");
  const victim = path.join(dir, "victim.txt");
  writeFileSync(victim, VICTIM_TEXT);
  symlinkSync(victim, path.join(dir, "live.claim"));
  symlinkSync(path.join(dir, "not-there"), path.join(dir, "dangling.claim"));
  assert.equal(await createExclusive(path.join(dir, "live.claim"), "{}\n"), false);
  assert.equal(await createExclusive(path.join(dir, "dangling.claim"), "{}\n"), false);
  assert.equal(readFileSync(victim, "utf8"), VICTIM_TEXT);
  assert.deepEqual(readdirSync(dir).sort(), ["dangling.claim", "live.claim", "victim.txt"]);
});

test("a FIFO or a folder at the target is refused in one line, and nothing is left", async (t) => {
  const dir = tempDir("mcp-cassette-safe-");
  const fifo = path.join(dir, "out.html");
  if (spawnSync("mkfifo", [fifo]).status !== 0) return skipTest(t, "mkfifo is not available");
  await assert.rejects(
    writeFileSafely(fifo, "x"),
    /Refusing to write the file .*out\.html: it is not a regular file/,
  );
  await assert.rejects(writeFileSafely(dir, "x"), /it is a directory/);
  assert.deepEqual(readdirSync(dir), ["out.html"]);
});
