/**
 * The core benchmarks (issue 2), side by side in one run with the same SDK
 * client and the same runtime (Deno):
 *
 * - replay vs a hand-written in-memory responder (the floor): per-call p50
 *   latency and start-to-first-answer;
 * - the recorder vs a bare byte pipe in the middle: per-call p50 (and the
 *   recorder kept on its main thread, to show what its threads save);
 * - reading a large cassette as the cassette reader does (the file's text,
 *   the JSONL framer) + JSON.parse vs JSON.parse alone on the same lines;
 * - replay memory against the cassette's size;
 * - with --scale only (issue 24, scripts/bench/scale.ts): replay start to
 *   first answer at 10, 1,500 and 100,000 calls (10^6 frames with --huge)
 *   against the floor's, each from a fresh process, interleaved rounds,
 *   medians; replay, `lint` and `inspect` peak RSS per MB of cassette.
 *
 * Usage: deno run -A --v8-flags=--expose-gc scripts/bench.ts [--calls 400] [--rounds 3] [--big-mb 100] [--only latency,framing,memory] [--base DIR]
 *   (--base DIR: the latency rows time only the floor, this replay and the replay of the
 *   checkout at DIR, e.g. a `git worktree` of the base commit, alternating in each round)
 *        deno run -A scripts/bench.ts --scale [--scale-rounds 5] [--huge]
 *   (the issue 24 rows; --huge adds the 10^6-frame cassette, about 170 MB: each of its
 *   replay runs took tens of seconds here, so it is off by default)
 * Prints Markdown tables; BENCHMARKS.md holds the last run's.
 */
import {
  closeSync,
  fsyncSync,
  mkdtempSync,
  openSync,
  readFileSync,
  statSync,
  writeSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import process from "node:process";
import { parseArgs } from "node:util";
import { lineBatches, loadCassette } from "../src/cassette/reader.ts";
import { ReplayEngine } from "../src/replay/engine.ts";
import { runtime } from "../src/runtime/mod.ts";
import { runScale } from "./bench/scale.ts";
import { median, medianRun, type Run, type Target, timeSession } from "./bench/stdio_session.ts";

const { values } = parseArgs({
  args: process.argv.slice(2),
  options: {
    calls: { type: "string", default: "400" },
    rounds: { type: "string", default: "3" },
    "big-mb": { type: "string", default: "100" },
    only: { type: "string" },
    scale: { type: "boolean", default: false },
    "scale-rounds": { type: "string", default: "5" },
    huge: { type: "boolean", default: false },
    base: { type: "string" },
  },
});
const CALLS = Number(values.calls);
const ROUNDS = Number(values.rounds);
const BIG_MB = Number(values["big-mb"]);

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
const deno = process.execPath;
const run = [deno, "run", "-A", "--no-check"];
const floor = [...run, path.join(root, "scripts/bench/floor_server.ts")];
const pipe = [...run, path.join(root, "scripts/bench/byte_pipe.ts"), ...floor];
const cli = [...run, path.join(root, "cli.ts")];
const dir = mkdtempSync(path.join(tmpdir(), "mcp-cassette-bench-"));

async function latency() {
  const cassette = path.join(dir, "floor.cassette.jsonl");
  const recorder = [
    ...cli,
    "record",
    "--append-window-ms",
    "0",
    "-o",
    path.join(dir, "rec.cassette.jsonl"),
    "--",
    ...floor,
  ];
  const base = values.base;
  const targets: Record<string, Target> = base
    ? {
      floor: { command: floor },
      replay: { command: [...cli, "replay", "--quiet", cassette] },
      "replay (base)": {
        command: [...run, path.join(path.resolve(base), "cli.ts"), "replay", "--quiet", cassette],
      },
    }
    : {
      floor: { command: floor },
      replay: { command: [...cli, "replay", "--quiet", cassette] },
      // Spy mode (--on-miss live) with every call a hit: the live server is never started.
      "replay, spy mode": {
        command: [...cli, "replay", "--quiet", cassette, "--on-miss", "live", "--", ...floor],
      },
      "byte pipe": { command: pipe },
      recorder: { command: recorder },
      // What the recorder's threads (src/record/threads.ts) save: the same recorder copying on its event loop.
      "recorder on its main thread": {
        command: recorder,
        env: { MCP_CASSETTE_RECORDER_THREADS: "0" },
      },
    };
  // The replay needs a cassette of exactly this session: record it once first.
  await timeSession({
    command: [...cli, "record", "--append-window-ms", "0", "-o", cassette, "--", ...floor],
  }, CALLS);
  const runs: Record<string, Run[]> = {};
  for (let round = 0; round < ROUNDS; round++) {
    for (const [name, target] of Object.entries(targets)) {
      (runs[name] ??= []).push(await timeSession(target, CALLS));
    }
  }
  const summary: Record<string, Run> = {};
  for (const [name, list] of Object.entries(runs)) summary[name] = medianRun(list);
  return summary;
}

/** Writes a cassette of about `mb` megabytes of realistic tool traffic. */
function writeBigCassette(file: string, mb: number): number {
  const fd = openSync(file, "w");
  writeSync(
    fd,
    JSON.stringify({
      format: "mcp-cassette",
      version: 1,
      recorder: "bench",
      created: new Date().toISOString(),
      transport: "stdio",
      server: { command: ["bench"] },
    }) + "\n",
  );
  const filler = "lorem ipsum dolor sit amet ".repeat(36);
  let bytes = 0;
  let id = 0;
  let chunk = "";
  while (bytes < mb * 1024 * 1024) {
    id++;
    const request = {
      type: "message",
      t: id,
      dir: "c2s",
      msg: {
        jsonrpc: "2.0",
        id,
        method: "tools/call",
        params: { name: "search", arguments: { query: `q${id}`, limit: id % 50 } },
      },
    };
    const response = {
      type: "message",
      t: id + 0.5,
      dir: "s2c",
      msg: {
        jsonrpc: "2.0",
        id,
        result: {
          content: [{ type: "text", text: `${id}: ${filler}` }],
          structuredContent: { hits: [id, id + 1, id + 2], score: id / 7 },
        },
      },
    };
    const text = JSON.stringify(request) + "\n" + JSON.stringify(response) + "\n";
    chunk += text;
    bytes += text.length;
    if (chunk.length > 1 << 20) {
      writeSync(fd, chunk);
      chunk = "";
    }
  }
  writeSync(fd, chunk);
  // On disk before any timing: the kernel writing 100 MB back in the
  // background took CPU from the first passes that read the file.
  fsyncSync(fd);
  closeSync(fd);
  return statSync(file).size;
}

async function framing(file: string) {
  const timeFramed = async () => {
    const t0 = performance.now();
    let count = 0;
    for await (const lines of lineBatches(file)) {
      for (const line of lines) JSON.parse(line);
      count += lines.length;
    }
    return { ms: performance.now() - t0, count };
  };
  const lines = readFileSync(file, "utf8").split("\n").filter((line) => line !== "");
  const timeParseOnly = () => {
    const t0 = performance.now();
    for (const line of lines) JSON.parse(line);
    return performance.now() - t0;
  };
  // The first pass of each is reported apart: it also measures V8 compiling
  // the framer (JSON.parse is native and has no such pass).
  const coldFramedMs = (await timeFramed()).ms;
  const coldParseOnlyMs = timeParseOnly();
  const framed: number[] = [];
  const parseOnly: number[] = [];
  for (let i = 0; i < 5; i++) {
    framed.push((await timeFramed()).ms);
    parseOnly.push(timeParseOnly());
  }
  return {
    framedMs: median(framed),
    parseOnlyMs: median(parseOnly),
    coldFramedMs,
    coldParseOnlyMs,
    lines: lines.length,
  };
}

function heapUsed(): number {
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  gc?.();
  const usage = process.memoryUsage();
  return usage.heapUsed + usage.external + usage.arrayBuffers;
}

async function memory(file: string) {
  const before = heapUsed();
  const engine = new ReplayEngine(await loadCassette(file));
  const after = heapUsed();
  if (engine.episodes.sessions.length === 0) throw new Error("no sessions");
  return after - before;
}

const only = values.scale ? ["scale"] : values.only?.split(",");
// The scale part runs only when asked for: it takes minutes and writes hundreds of MB.
const wants = (part: string) => only ? only.includes(part) : part !== "scale";
const ms = (value: number) => `${value.toFixed(3)} ms`;
const ratio = (a: number, b: number) => `${(a / b).toFixed(2)}×`;
const out = [
  `Run: ${new Date().toISOString()}, Deno ${process.versions.deno ?? "?"}, ${runtime.name}`,
  "",
];
const figures = ["| figure | measured | target |", "| --- | --- | --- |"];
if (wants("latency")) {
  const results = await latency();
  out.push(
    `${CALLS} sequential tools/call per session, ${ROUNDS} rounds per target, medians of the rounds:`,
    "",
    "| target | start to first answer | per-call p50 | per-call p90 | per-call p95 |",
    "| --- | --- | --- | --- | --- |",
    ...Object.entries(results).map(([name, r]) =>
      `| ${name} | ${ms(r.startMs)} | ${ms(r.p50Ms)} | ${ms(r.p90Ms)} | ${ms(r.p95Ms)} |`
    ),
    "",
  );
  if (values.base) {
    const [now, then] = [results.replay, results["replay (base)"]];
    figures.push(
      `| replay p50 / base replay p50 | ${ratio(now.p50Ms, then.p50Ms)} | ≤ 1.00× |`,
      `| replay p90 / base replay p90 | ${ratio(now.p90Ms, then.p90Ms)} | ≤ 1.00× |`,
    );
  } else {
    figures.push(
      `| replay p50 / floor p50 | ${ratio(results.replay.p50Ms, results.floor.p50Ms)} | ≤ 1.10× |`,
      `| spy-mode replay p50 / replay p50 (every call a hit) | ${
        ratio(results["replay, spy mode"].p50Ms, results.replay.p50Ms)
      } | ≤ 1.05× |`,
      `| replay start / floor start | ${
        ratio(results.replay.startMs, results.floor.startMs)
      } | ≤ 1.20× |`,
      `| recorder p50 / byte pipe p50 | ${
        ratio(results.recorder.p50Ms, results["byte pipe"].p50Ms)
      } | ≤ 1.10× |`,
      `| (recorder on its main thread p50 / byte pipe p50) | ${
        ratio(results["recorder on its main thread"].p50Ms, results["byte pipe"].p50Ms)
      } | — |`,
    );
  }
}
if (wants("framing")) {
  const big = path.join(dir, "big.cassette.jsonl");
  const bigBytes = writeBigCassette(big, BIG_MB);
  const frame = await framing(big);
  figures.push(
    `| framer + JSON.parse speed / JSON.parse alone (${
      (bigBytes / 1048576).toFixed(0)
    } MB, ${frame.lines} lines; median of 5 passes after the first) | ${
      (frame.parseOnlyMs / frame.framedMs * 100).toFixed(0)
    } % (${frame.framedMs.toFixed(0)} ms vs ${frame.parseOnlyMs.toFixed(0)} ms) | ≥ 80 % |`,
    `| same, first pass of each | ${
      (frame.coldParseOnlyMs / frame.coldFramedMs * 100).toFixed(0)
    } % (${frame.coldFramedMs.toFixed(0)} ms vs ${frame.coldParseOnlyMs.toFixed(0)} ms) | — |`,
  );
}
if (wants("memory")) {
  const memoryFile = path.join(dir, "memory.cassette.jsonl");
  const memoryBytes = writeBigCassette(memoryFile, Math.min(BIG_MB, 50));
  const replayMemory = await memory(memoryFile);
  figures.push(
    `| replay memory / cassette size (${(memoryBytes / 1048576).toFixed(0)} MB) | ${
      ratio(replayMemory, memoryBytes)
    } (${(replayMemory / 1048576).toFixed(0)} MB) | ≤ 2× |`,
  );
}
if (wants("scale")) {
  // Its cassettes take up to 200 MB: they go even when a run fails.
  const scale = await runScale({
    run,
    root,
    dir,
    rounds: Number(values["scale-rounds"]),
    huge: values.huge,
  }).catch(async (error) => {
    await runtime.remove(dir).catch(() => {});
    throw error;
  });
  out.push(scale, "");
}
console.log([...out, ...(figures.length > 2 ? figures : [])].join("\n"));
await runtime.remove(dir).catch(() => {});
