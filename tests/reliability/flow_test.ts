/**
 * Flow: a slow reader does not make the recorder buffer without bound
 * (its RSS stays flat while 100 MB stream through it), and a flood of
 * notifications passes the recorder without one lost or reordered.
 * The rates are printed as figures for docs/reliability.md, never asserted.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { rmSync } from "node:fs";
import path from "node:path";
import process from "node:process";
import { readCassetteLines } from "../../src/cassette/reader.ts";
import { CLI, ROOT, tempDir } from "../helpers.ts";
import { figure, FIXTURE, LONG, rssKiB, sampleRss } from "./_helpers.ts";

const MiB = 1024 * 1024;
/** A generous bound: the recorder's own footprint is ~60 MB; an unbounded buffer of 100 MB would pass it. */
const RSS_BOUND_KIB = 150 * 1024;

interface Drained {
  bytes: number;
  newlines: number;
  firstByteAt: number;
  lastByteAt: number;
  code: number | null;
  peakRssKiB: number;
  baselineRssKiB: number;
}

/**
 * Runs a command and reads its stdout at no more than `bytesPerSecond`
 * (unlimited when 0), sampling its RSS; `onChunk` sees every chunk.
 */
function drain(
  command: string[],
  bytesPerSecond: number,
  onChunk?: (chunk: Buffer) => void,
): Promise<Drained> {
  return new Promise((resolve, reject) => {
    const child = spawn(command[0], command.slice(1), {
      cwd: ROOT,
      stdio: ["ignore", "pipe", "inherit"],
      env: process.env,
    });
    const sampler = sampleRss(child.pid!, 25);
    let bytes = 0;
    let newlines = 0;
    let firstByteAt = 0;
    let baselineRssKiB = 0;
    let lastByteAt = 0;
    const started = performance.now();
    child.stdout.on("data", (chunk: Buffer) => {
      if (bytes === 0) {
        firstByteAt = performance.now();
        baselineRssKiB = rssKiB(child.pid!) ?? 0;
      }
      bytes += chunk.length;
      lastByteAt = performance.now();
      let at = chunk.indexOf(10);
      while (at !== -1) {
        newlines++;
        at = chunk.indexOf(10, at + 1);
      }
      onChunk?.(chunk);
      if (bytesPerSecond > 0) {
        // Hold the pipe shut until this reader's budget allows more.
        const due = started + (bytes / bytesPerSecond) * 1000 - performance.now();
        if (due > 1) {
          child.stdout.pause();
          setTimeout(() => child.stdout.resume(), due);
        }
      }
    });
    child.on("error", reject);
    child.on("close", (code) => {
      const samples = sampler.stop();
      resolve({
        bytes,
        newlines,
        firstByteAt,
        lastByteAt,
        code,
        peakRssKiB: Math.max(0, ...samples),
        baselineRssKiB,
      });
    });
  });
}

test("a slow reader: the recorder's RSS stays flat while 100 MB stream through it", async () => {
  const dir = tempDir("mcp-cassette-flow-");
  const cassette = path.join(dir, "stream.cassette.jsonl");
  const total = 100 * MiB;
  const lineBytes = 4096;
  const rate = 25 * MiB;
  try {
    const result = await drain([
      ...CLI,
      "record",
      "-o",
      cassette,
      "--",
      ...FIXTURE,
      "stream",
      String(total),
      String(lineBytes),
    ], rate);
    assert.equal(result.code, 0);
    assert.equal(result.bytes, total, "every byte reached the reader");
    assert.equal(result.newlines, total / lineBytes);
    let frames = 0;
    for await (const item of readCassetteLines(cassette)) {
      if (item.kind === "entry" && item.entry.type === "message") frames++;
    }
    assert.equal(frames, total / lineBytes, "every line is in the cassette");
    const seconds = (result.lastByteAt - result.firstByteAt) / 1000;
    figure("stdio-slow-reader", {
      streamedMB: total / MiB,
      readerMBps: Math.round(total / MiB / seconds),
      recorderRssBaselineMB: Math.round(result.baselineRssKiB / 1024),
      recorderRssPeakMB: Math.round(result.peakRssKiB / 1024),
      boundMB: RSS_BOUND_KIB / 1024,
    });
    assert.ok(result.peakRssKiB > 0, "RSS was sampled");
    assert.ok(result.peakRssKiB < RSS_BOUND_KIB, `recorder RSS peaked at ${result.peakRssKiB} KiB`);
    // The reader really was the bottleneck: it took about total / rate.
    assert.ok(
      seconds > (total / rate) * 0.8,
      `the stream took ${seconds} s, faster than the reader's pace`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

/** Checks `{"…":…,"data":N}` lines arrive numbered 1, 2, 3, … */
function sequenceChecker(): {
  onChunk: (chunk: Buffer) => void;
  next: () => number;
  errors: string[];
} {
  let expected = 1;
  let partial = "";
  const errors: string[] = [];
  return {
    onChunk(chunk) {
      const lines = (partial + chunk.toString("utf8")).split("\n");
      partial = lines.pop()!;
      for (const line of lines) {
        const seq = Number(/"data":(\d+)\}\}$/.exec(line)?.[1]);
        if (seq !== expected && errors.length < 5) {
          errors.push(`expected ${expected}, got ${line.slice(0, 120)}`);
        }
        expected = seq + 1;
      }
    },
    next: () => expected,
    errors,
  };
}

test("a flood of numbered notifications passes the recorder with none lost or reordered", async () => {
  const count = LONG ? 1_000_000 : 200_000;
  const dir = tempDir("mcp-cassette-load-");
  const cassette = path.join(dir, "flood.cassette.jsonl");
  try {
    const bareCheck = sequenceChecker();
    const bare = await drain([...FIXTURE, "flood", String(count)], 0, bareCheck.onChunk);
    assert.deepEqual(bareCheck.errors, []);
    assert.equal(bareCheck.next(), count + 1);

    const check = sequenceChecker();
    const recorded = await drain(
      [...CLI, "record", "-o", cassette, "--", ...FIXTURE, "flood", String(count)],
      0,
      check.onChunk,
    );
    assert.equal(recorded.code, 0);
    assert.deepEqual(check.errors, []);
    assert.equal(check.next(), count + 1, "every notification reached the reader, in order");

    let expected = 1;
    for await (const item of readCassetteLines(cassette)) {
      if (item.kind !== "entry" || item.entry.type !== "message") continue;
      const seq = (item.entry.msg as { params: { data: number } }).params.data;
      if (seq !== expected) {
        assert.fail(`cassette: expected notification ${expected}, found ${seq}`);
      }
      expected++;
    }
    assert.equal(expected, count + 1, "every notification is in the cassette, in order");
    const rate = (result: Drained) =>
      Math.round(count / ((result.lastByteAt - result.firstByteAt) / 1000));
    figure("stdio-flood", {
      messages: count,
      bareServerMsgsPerSecond: rate(bare),
      throughRecorderMsgsPerSecond: rate(recorded),
      recorderRssPeakMB: Math.round(recorded.peakRssKiB / 1024),
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
