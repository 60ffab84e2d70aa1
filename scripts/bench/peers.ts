/**
 * Our stdio replay beside the fastest peer's (issue 36), in one run: the
 * official SDK client calls the floor's `echo` tool `--calls` times through
 *
 * - the floor, a hand-written in-memory responder (scripts/bench/floor_server.ts);
 * - mcp-rec 0.1.1 (PyPI) replaying its own recording of the floor, installed
 *   by this script into a throw-away venv;
 * - our replay of our recording of the floor, from the checkout on Deno (and,
 *   with `--binary FILE`, the standalone executable, `deno task compile:host`;
 *   with `--base DIR`, the replay of the checkout at DIR, e.g. a `git archive`
 *   of an older commit);
 *
 * a fresh process per session, the targets alternating in each of `--rounds`
 * rounds. Prints per target the medians over rounds (and their range) of
 * p50, p90 and start to first answer, the same p50 and p90 over the calls
 * after the first 200 (a JIT's warm-up left out), the median call by range
 * of call index (where the warm-up ends), and our ratios to the peer's and
 * the floor's, each the median of the rounds' own ratios.
 *
 * Usage: deno run -A scripts/bench/peers.ts [--calls 1500] [--rounds 5] [--python python3] [--base DIR] [--binary FILE]
 *
 * @module
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import process from "node:process";
import { parseArgs } from "node:util";
import { median, type Run, STAGES, type Target, timeSession } from "./stdio_session.ts";

const PEER = "mcp-rec==0.1.1";

const { values } = parseArgs({
  args: process.argv.slice(2),
  options: {
    calls: { type: "string", default: "1500" },
    rounds: { type: "string", default: "5" },
    python: { type: "string", default: "python3" },
    base: { type: "string" },
    binary: { type: "string" },
  },
});
const calls = Number(values.calls);
const rounds = Number(values.rounds);
const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "../..");
const run = [process.execPath, "run", "-A", "--no-check"];
const floor = [...run, path.join(root, "scripts/bench/floor_server.ts")];
const cli = (tree: string) => [...run, path.join(tree, "cli.ts")];
const dir = mkdtempSync(path.join(tmpdir(), "mcp-cassette-peers-"));

/** Installs the peer into a venv of this run's own; returns its command and Python's version. */
function installPeer(): { bin: string; python: string } {
  const venv = path.join(dir, "venv");
  execFileSync(values.python, ["-m", "venv", venv]);
  const pip = path.join(venv, "bin", "pip");
  execFileSync(pip, ["install", "--quiet", "--disable-pip-version-check", PEER], {
    stdio: ["ignore", "ignore", "inherit"],
  });
  const python = execFileSync(path.join(venv, "bin", "python"), ["--version"]).toString().trim();
  return { bin: path.join(venv, "bin", "mcp-rec"), python };
}

async function main() {
  const peer = installPeer();
  const ours = path.join(dir, "ours.cassette.jsonl");
  const theirs = path.join(dir, "mcp-rec.jsonl");
  // Each tool replays its own recording of the same session against the floor.
  await timeSession({ command: [...cli(root), "record", "-o", ours, "--", ...floor] }, calls);
  await timeSession({ command: [peer.bin, "record", "-o", theirs, "--", ...floor] }, calls);
  const targets: Record<string, Target> = {
    floor: { command: floor },
    "mcp-rec 0.1.1": { command: [peer.bin, "replay", theirs] },
    ours: { command: [...cli(root), "replay", "--quiet", ours] },
  };
  if (values.binary) {
    targets["ours (binary)"] = {
      command: [path.resolve(values.binary), "replay", "--quiet", ours],
    };
  }
  if (values.base) {
    targets["ours (base)"] = {
      command: [...cli(path.resolve(values.base)), "replay", "--quiet", ours],
    };
  }
  const runs: Record<string, Run[]> = {};
  for (let round = 0; round < rounds; round++) {
    for (const [name, target] of Object.entries(targets)) {
      (runs[name] ??= []).push(await timeSession(target, calls));
    }
  }
  print(runs, peer.python);
}

/** A field of a run that is one number. */
type Figure = Exclude<keyof Run, "stageP50Ms">;
const ms = (value: number) => `${(value * 1000).toFixed(0)} µs`;
const range = (list: Run[], field: Figure) => {
  const values = list.map((r) => r[field]);
  return `${ms(median(values))} (${ms(Math.min(...values))}–${ms(Math.max(...values))})`;
};
const startRange = (list: Run[]) => {
  const values = list.map((r) => r.startMs);
  return `${median(values).toFixed(0)} ms (${Math.min(...values).toFixed(0)}–${
    Math.max(...values).toFixed(0)
  })`;
};
/** The median of the rounds' own ratios a/b of one field. */
const pairedRatio = (a: Run[], b: Run[], field: Figure) =>
  `${median(a.map((r, i) => r[field] / b[i][field])).toFixed(2)}×`;

function print(runs: Record<string, Run[]>, python: string) {
  const lines = [
    `Run: ${new Date().toISOString()}, Deno ${process.versions.deno ?? "?"}, ${python}; ` +
    `${calls} sequential tools/call per session, ${rounds} alternating rounds; medians of the rounds (range):`,
    "",
    "| target | per-call p50 | per-call p90 | after 200 calls: p50 | p90 | start to first answer |",
    "| --- | --- | --- | --- | --- | --- |",
    ...Object.entries(runs).map(([name, list]) =>
      `| ${name} | ${range(list, "p50Ms")} | ${range(list, "p90Ms")} | ${
        range(list, "steadyP50Ms")
      } | ${range(list, "steadyP90Ms")} | ${startRange(list)} |`
    ),
    "",
  ];
  const pairs = [
    ["ours", "mcp-rec 0.1.1"],
    ["ours", "floor"],
    ...(values.binary ? [["ours (binary)", "mcp-rec 0.1.1"]] : []),
    ...(values.base ? [["ours", "ours (base)"]] : []),
  ];
  lines.push(
    ...stageTable(runs),
    "",
    "| ratio (median of the rounds' own ratios) | p50 | p90 | after 200: p50 | p90 | start |",
    "| --- | --- | --- | --- | --- | --- |",
  );
  for (const [one, other] of pairs) {
    const [a, b] = [runs[one], runs[other]];
    lines.push(
      `| ${one} / ${other} | ${pairedRatio(a, b, "p50Ms")} | ${pairedRatio(a, b, "p90Ms")} | ${
        pairedRatio(a, b, "steadyP50Ms")
      } | ${pairedRatio(a, b, "steadyP90Ms")} | ${pairedRatio(a, b, "startMs")} |`,
    );
  }
  console.log(lines.join("\n"));
}

/** Per target, the median over rounds of each stage's median: how fast calls get as a session goes on. */
function stageTable(runs: Record<string, Run[]>): string[] {
  const name = ([from, to]: readonly [number, number]) =>
    to === Infinity ? `calls ${from}–` : `calls ${from}–${to - 1}`;
  return [
    "Per-call medians by call index, median of the rounds:",
    "",
    `| target | ${STAGES.map(name).join(" | ")} |`,
    `| --- |${" --- |".repeat(STAGES.length)}`,
    ...Object.entries(runs).map(([target, list]) =>
      `| ${target} | ${
        STAGES.map((_, i) => ms(median(list.map((r) => r.stageP50Ms[i])))).join(" | ")
      } |`
    ),
  ];
}

try {
  await main();
} finally {
  rmSync(dir, { recursive: true, force: true });
}
