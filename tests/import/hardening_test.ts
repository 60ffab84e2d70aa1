/**
 * Files that are no cassette at all: random bytes are refused after the
 * first chunk, with bounded memory; a FIFO is refused before anything
 * blocks on it, as a cassette to read and as `record -o`.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { randomFillSync } from "node:crypto";
import { closeSync, openSync, rmSync, statSync, writeFileSync, writeSync } from "node:fs";
import path from "node:path";
import process from "node:process";
import { CLI, DENO, EVERYTHING, ROOT, run, tempDir } from "../helpers.ts";
import type { RunResult } from "../helpers.ts";

const MB = 1024 * 1024;

/** Runs `body` with a fresh temporary folder, removed afterwards. */
async function inTempDir(body: (dir: string) => Promise<void>): Promise<void> {
  const dir = tempDir();
  try {
    await body(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function writeRandom(file: string, bytes: number): void {
  const fd = openSync(file, "w");
  const block = new Uint8Array(MB);
  try {
    for (let written = 0; written < bytes; written += block.length) {
      writeSync(fd, randomFillSync(block));
    }
  } finally {
    closeSync(fd);
  }
}

/** Exit 2 and one line on stderr, not a hang: a kill after the generous bound fails the test. */
function refused(result: RunResult, what: string): string {
  assert.equal(result.signal, null, `${what} was still running after the bound and was killed`);
  assert.equal(result.code, 2, `${what}: ${result.stderr}`);
  const lines = result.stderr.trim().split("\n");
  assert.equal(lines.length, 1, `${what} printed one line, not:\n${result.stderr.slice(0, 2000)}`);
  return lines[0];
}

async function peakRss(file: string): Promise<{ error?: string; maxRssKiB: number }> {
  const result = await run([
    DENO,
    "run",
    "-A",
    "--no-check",
    path.join(ROOT, "tests/import/peak_rss.ts"),
    file,
  ]);
  assert.equal(result.code, 0, result.stderr);
  return JSON.parse(result.stdout);
}

test("50 MB of random bytes: lint, replay and inspect print the known-formats line, exit 2", async () => {
  await inTempDir(async (dir) => {
    const file = path.join(dir, "random.cassette.jsonl");
    writeRandom(file, 50 * MB);
    for (const command of ["lint", "replay", "inspect"]) {
      const line = refused(await run([...CLI, command, file], { timeoutMs: 60_000 }), command);
      assert.match(
        line,
        new RegExp(
          `^mcp-cassette ${command}: .*random\\.cassette\\.jsonl:\\d+: not a cassette of any known format \\(expected`,
        ),
      );
      assert.ok(!line.includes("\ufffd"), "no bytes of the file in the message");
    }
  });
});

test("random bytes are refused after the first chunk: peak memory barely above an empty file's", async () => {
  await inTempDir(async (dir) => {
    const empty = path.join(dir, "empty.cassette.jsonl");
    writeFileSync(empty, "");
    const random = path.join(dir, "random.cassette.jsonl");
    writeRandom(random, 50 * MB);
    const base = await peakRss(empty);
    assert.match(base.error ?? "", /the file is empty/);
    const got = await peakRss(random);
    assert.match(got.error ?? "", /not a cassette of any known format/);
    const extraMiB = (got.maxRssKiB - base.maxRssKiB) / 1024;
    // Reading the 50 MB whole costs 100 MB or more (UTF-16 text); the first chunk is 1 MiB.
    assert.ok(
      extraMiB < 32,
      `peak RSS ${(got.maxRssKiB / 1024).toFixed(1)} MiB for 50 MB of random bytes, ` +
        `${(base.maxRssKiB / 1024).toFixed(1)} MiB for an empty file: ${
          extraMiB.toFixed(1)
        } MiB more`,
    );
  });
});

const canMakeFifo = process.platform !== "win32" &&
  spawnSync("mkfifo", ["--version"]).status === 0;

function mkfifo(file: string): void {
  const made = spawnSync("mkfifo", [file]);
  assert.equal(made.status, 0, String(made.stderr));
}

test("a FIFO as the cassette is refused at once, not read until killed", {
  skip: canMakeFifo ? false : "needs mkfifo (not on Windows)",
}, async () => {
  await inTempDir(async (dir) => {
    const fifo = path.join(dir, "pipe.cassette.jsonl");
    mkfifo(fifo);
    for (
      const command of [["replay"], ["lint"], ["inspect"], [
        "import",
        "-o",
        path.join(dir, "out.jsonl"),
      ]]
    ) {
      const line = refused(
        await run([...CLI, command[0], fifo, ...command.slice(1)], { timeoutMs: 30_000 }),
        command[0],
      );
      assert.match(
        line,
        /pipe\.cassette\.jsonl: cannot read the file: is not a regular file \(a FIFO/,
      );
    }
  });
});

test("record -o and import -o to a FIFO are refused before anything starts, and the FIFO stays", {
  skip: canMakeFifo ? false : "needs mkfifo (not on Windows)",
}, async () => {
  await inTempDir(async (dir) => {
    const fifo = path.join(dir, "pipe.cassette.jsonl");
    mkfifo(fifo);
    const result = await run([...CLI, "record", "-o", fifo, "--", ...EVERYTHING], {
      timeoutMs: 30_000,
    });
    const line = refused(result, "record -o FIFO");
    assert.match(
      line,
      /^mcp-cassette record: -o .*pipe\.cassette\.jsonl: is not a regular file \(a FIFO/,
    );
    assert.ok(statSync(fifo).isFIFO(), "the FIFO was not replaced");
    const sample = path.join(ROOT, "tests/fixtures/foreign/mcp-rec/session.jsonl");
    const converted = await run([...CLI, "import", sample, "-o", fifo, "--force"], {
      timeoutMs: 30_000,
    });
    assert.match(
      refused(converted, "import -o FIFO --force"),
      /-o .*pipe\.cassette\.jsonl: is not a regular file/,
    );
    assert.ok(statSync(fifo).isFIFO(), "import did not replace the FIFO");
  });
});
