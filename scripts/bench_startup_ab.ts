/**
 * Start-up to first answer of `replay`, two checkouts side by side: a run of
 * one, then of the other, alternating, so that both see the same machine
 * load. For a change to the start-up path, compare the tree before it with
 * the tree after it. Not a test: figures go into BENCHMARKS.md.
 *
 * Cassettes: the small example (read in one go), one of about 200 KB
 * (streamed, frames held), one of about 2 MB (streamed, frames left on
 * disk) and a Python mcp-cassette file (converted on reading).
 *
 * With --cpu, the processor time (user + system, from GNU time) each replay
 * uses to its exit after answering `initialize` on a closed stdin: steadier
 * than wall-clock time on a loaded machine.
 *
 * Usage: deno run -A scripts/bench_startup_ab.ts --before DIR --after DIR [--runs N] [--cpu]
 *
 * @module
 */
import { spawn, spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import path from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const DENO = path.join(ROOT, "node_modules", "deno", "deno");

const INITIALIZE = JSON.stringify({
  jsonrpc: "2.0",
  id: 0,
  method: "initialize",
  params: {
    protocolVersion: "2025-11-25",
    capabilities: {},
    clientInfo: { name: "bench", version: "1" },
  },
}) + "\n";

/** Milliseconds from spawn to the first line on stdout, for `replay -q cassette` of `tree`. */
function timeToFirstAnswer(tree: string, cassette: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(
      DENO,
      ["run", "-A", "--no-check", path.join(tree, "cli.ts"), "replay", "-q", cassette],
      { stdio: ["pipe", "pipe", "ignore"], cwd: os.tmpdir() },
    );
    let buffered = "";
    child.on("error", reject);
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      buffered += chunk;
      if (!buffered.includes("\n")) return;
      const elapsed = performance.now() - started;
      if (!buffered.includes('"protocolVersion"')) reject(new Error(`answer: ${buffered}`));
      child.stdin.end();
      child.kill();
      resolve(elapsed);
    });
    child.stdin.on("error", () => {});
    child.stdin.write(INITIALIZE);
  });
}

/** Processor milliseconds (user + system) of `replay -q cassette` of `tree`, to its exit. */
function cpuToExit(tree: string, cassette: string): number {
  const result = spawnSync("/usr/bin/time", [
    "-f",
    "%U %S",
    DENO,
    "run",
    "-A",
    "--no-check",
    path.join(tree, "cli.ts"),
    "replay",
    "-q",
    cassette,
  ], { input: INITIALIZE, encoding: "utf8", cwd: os.tmpdir() });
  if (!result.stdout.includes('"protocolVersion"')) throw new Error(`answer: ${result.stdout}`);
  const [user, system] = result.stderr.trim().split("\n").at(-1)!.split(" ").map(Number);
  return (user + system) * 1000;
}

/** The example cassette with `exchanges` more tools/list exchanges, written to `file`. */
function grown(file: string, exchanges: number): string {
  const lines = fs.readFileSync(
    path.join(ROOT, "examples", "cassettes", "weather.cassette.jsonl"),
    "utf8",
  ).trimEnd().split("\n");
  const answer = lines.find((line) => line.includes('"tools":['))!;
  const out = [...lines];
  for (let i = 0; i < exchanges; i++) {
    const id = 1000 + i;
    out.push(
      `{"type":"message","t":${
        100 + i
      },"session":"1","dir":"c2s","msg":{"jsonrpc":"2.0","id":${id},"method":"tools/list","params":{}}}`,
      answer.replace(/"t":\d+/, `"t":${100 + i}`).replace(/"id":\d+/, `"id":${id}`),
    );
  }
  fs.writeFileSync(file, out.join("\n") + "\n");
  return file;
}

function mean(values: number[]): number {
  return values.reduce((sum, value) => sum + value, 0) / values.length;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

const { values } = parseArgs({
  args: process.argv.slice(2),
  options: {
    before: { type: "string" },
    after: { type: "string" },
    runs: { type: "string", default: "15" },
    cpu: { type: "boolean", default: false },
  },
});
if (!values.before || !values.after) {
  console.error("usage: bench_startup_ab.ts --before DIR --after DIR [--runs N]");
  process.exit(2);
}
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-ab-"));
try {
  const cassettes: [string, string][] = [
    ["small (2 KB, one read)", path.join(ROOT, "examples", "cassettes", "weather.cassette.jsonl")],
    ["streamed (~200 KB)", grown(path.join(dir, "mid.jsonl"), 200)],
    ["frames on disk (~2 MB)", grown(path.join(dir, "big.jsonl"), 2000)],
    [
      "Python mcp-cassette (44 KB, converted)",
      path.join(
        ROOT,
        "tests",
        "fixtures",
        "foreign",
        "python-mcp-cassette",
        "everything.http.v3.mcp.json",
      ),
    ],
  ];
  const runs = Number(values.runs);
  const what = values.cpu ? "mean (min) processor ms to exit" : "median (min) ms to first answer";
  console.log(`| cassette | before: ${what} | after: ${what} |`);
  console.log(`| --- | --- | --- |`);
  for (const [name, file] of cassettes) {
    const before: number[] = [];
    const after: number[] = [];
    const measure = values.cpu
      ? (tree: string) => Promise.resolve(cpuToExit(tree, file))
      : (tree: string) => timeToFirstAnswer(tree, file);
    await measure(values.before); // warm the module cache of both
    await measure(values.after);
    for (let i = 0; i < runs; i++) {
      before.push(await measure(values.before));
      after.push(await measure(values.after));
    }
    // GNU time counts in 10 ms steps: the mean of many runs says more than their median.
    const middle = values.cpu ? mean : median;
    const figure = (times: number[]) =>
      `${middle(times).toFixed(1)} (${Math.min(...times).toFixed(1)})`;
    console.log(`| ${name} | ${figure(before)} | ${figure(after)} |`);
  }
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
