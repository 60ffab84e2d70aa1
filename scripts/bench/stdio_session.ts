/**
 * One timed stdio session, shared by the latency benchmarks: the official SDK
 * client starts a command, connects (start to first answer), then times
 * sequential `tools/call`s of the floor's `echo` tool.
 *
 * @module
 */
import { readFileSync } from "node:fs";
import { Client, getDefaultEnvironment, StdioClientTransport } from "../../tests/sdk.ts";

/** The value at percentile `p` (0–100) of `samples`, nearest rank. */
export function percentile(samples: number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/** The median of `samples`. */
export function median(samples: number[]): number {
  return percentile(samples, 50);
}

/** One session's start-up and per-call percentiles, in milliseconds. */
export interface Run {
  startMs: number;
  p50Ms: number;
  p90Ms: number;
  p95Ms: number;
  /** CPU time (user + system, all threads) the server process spent per call; NaN without /proc. */
  cpuUsPerCall: number;
  /** p50 and p90 of the calls after the first {@linkcode WARM_UP_CALLS} (a JIT's warm-up left out). */
  steadyP50Ms: number;
  steadyP90Ms: number;
  /** The median of each {@linkcode STAGES} range of calls, by call index: where a warm-up ends. */
  stageP50Ms: number[];
}

/** Ranges of call indexes, [from, to), whose medians {@linkcode Run.stageP50Ms} holds. */
export const STAGES: readonly (readonly [number, number])[] = [
  [0, 10],
  [10, 50],
  [50, 100],
  [100, 200],
  [200, 400],
  [400, 800],
  [800, Infinity],
];

/** Calls left out of the steady-state percentiles: those a JIT runs before it has optimised. */
export const WARM_UP_CALLS = 200;

/** A command to time, with variables added to the client's default environment for it. */
export interface Target {
  command: string[];
  env?: Record<string, string>;
}

/** Connects the SDK client to a command, then times `calls` sequential tool calls. */
export async function timeSession({ command, env }: Target, calls: number): Promise<Run> {
  const client = new Client({ name: "bench", version: "1.0.0" });
  const transport = new StdioClientTransport({
    command: command[0],
    args: command.slice(1),
    env: { ...getDefaultEnvironment(), ...env },
    stderr: "ignore",
  });
  const started = performance.now();
  await client.connect(transport);
  const startMs = performance.now() - started;
  const samples: number[] = [];
  const cpuBefore = cpuMs(transport.pid);
  for (let i = 0; i < calls; i++) {
    const t0 = performance.now();
    await client.callTool({ name: "echo", arguments: { message: `m${i}` } });
    samples.push(performance.now() - t0);
  }
  const cpuUsPerCall = (cpuMs(transport.pid) - cpuBefore) * 1000 / calls;
  await client.close();
  return {
    cpuUsPerCall,
    startMs,
    p50Ms: percentile(samples, 50),
    p90Ms: percentile(samples, 90),
    p95Ms: percentile(samples, 95),
    steadyP50Ms: percentile(samples.slice(WARM_UP_CALLS), 50),
    steadyP90Ms: percentile(samples.slice(WARM_UP_CALLS), 90),
    stageP50Ms: STAGES.map(([from, to]) => median(samples.slice(from, to))),
  };
}

/** The medians over rounds of each field of a target's runs. */
export function medianRun(runs: Run[]): Run {
  return {
    startMs: median(runs.map((r) => r.startMs)),
    p50Ms: median(runs.map((r) => r.p50Ms)),
    p90Ms: median(runs.map((r) => r.p90Ms)),
    p95Ms: median(runs.map((r) => r.p95Ms)),
    cpuUsPerCall: median(runs.map((r) => r.cpuUsPerCall)),
    steadyP50Ms: median(runs.map((r) => r.steadyP50Ms)),
    steadyP90Ms: median(runs.map((r) => r.steadyP90Ms)),
    stageP50Ms: runs[0].stageP50Ms.map((_, i) => median(runs.map((r) => r.stageP50Ms[i]))),
  };
}

/** The CPU time a process has spent so far (utime + stime from /proc), in ms; NaN where unknown. */
function cpuMs(pid: number | null): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // Fields after the command name (which may hold spaces) are space-separated: utime is the 14th.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return NaN;
  }
}
