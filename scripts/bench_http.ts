/**
 * HTTP benchmarks (issue 11). Not a test: figures go into BENCHMARKS.md,
 * never into assertions.
 *
 * Throughput and latency, side by side in one run under the same load: one
 * load generator (this script) drives `--sessions` concurrent Streamable HTTP
 * sessions on loopback, each `initialize` → `notifications/initialized` →
 * `--calls` `tools/call`s, `--per-worker` sessions one after another, with
 * fetch over keep-alive connections, against
 *
 * - the floor: scripts/bench/http_floor.ts, a minimal node:http server
 *   answering from memory (application/json, Mcp-Session-Id);
 * - `replay --listen` of a cassette recorded from that floor under the same load;
 * - `record --url` in front of the floor.
 *
 * Each target is first warmed with `--warmup` passes of that same load (its
 * first pass is reported apart, as the cold figure: the JIT has not yet
 * optimised a server's request path then, and replay's path is longer than
 * the floor's); then targets alternate in rounds of `--passes` passes each,
 * and the median round is kept.
 * All servers run under Deno (the CLI's runtime; the floor too, so the
 * comparison is of the code, not the runtime).
 *
 * SSE delay while recording: scripts/bench/sse_ticker.ts writes progress
 * events every `--interval` ms stamped with `performance.timeOrigin +
 * performance.now()`; the reader computes receive − send for each, directly
 * and through `record --url`.
 *
 * Issue 24 adds two parts, each from fresh processes and a load bounded by
 * time (`--sessions` workers opening sessions one after another for
 * `--duration` seconds, no warm-up pass):
 *
 * - cold: a fresh floor, then a fresh `replay --listen`, `--cold-rounds`
 *   times, the order alternating, medians (the headline replay figure: what
 *   a test suite that starts a replay sees);
 * - proxy: `record --url` against scripts/bench/bare_proxy.mjs (Node,
 *   `http.request` over a keep-alive Agent, piping both ways, recording
 *   nothing), both in front of one floor, each fresh, `--proxy-runs` runs,
 *   the order alternating, every run reported.
 *
 * Usage: bun scripts/bench_http.ts [--only warm,cold,proxy] [--sessions 50] [--calls 20]
 *          [--per-worker 4] [--warmup 8] [--rounds 7] [--passes 2] [--events 200] [--interval 5]
 *          [--duration 5] [--cold-rounds 5] [--proxy-runs 5] [--write] [--cpu-prof DIR]
 *   (or: deno run -A scripts/bench_http.ts …; Bun costs less on the client side)
 *   One command per row group:
 *     bun scripts/bench_http.ts --only cold    replay vs the floor, cold (issue 24)
 *     bun scripts/bench_http.ts --only proxy   recorder vs the bare proxy (issue 24)
 *     bun scripts/bench_http.ts --only warm    the issue 11 section (warm, first pass, SSE delay)
 *   --write  replace the "Streamable HTTP (issue 11)" section of BENCHMARKS.md (with warm)
 *     bun scripts/bench_http.ts --only base --base DIR   this replay vs another checkout's
 *            (DIR/cli.ts, e.g. a commit exported with `git archive`), cold, fresh processes,
 *            `--cold-rounds` rounds alternating which goes first: a change's cost, same run
 *   --cpu-prof DIR  the cold part's replays and the proxy part's recorders run with Deno's
 *            --cpu-prof, one folder per round in DIR (cold-1-replay, proxy-1-recorder, …): the
 *            profile of what a fresh replay or recorder does under this load
 *     bun scripts/bench_http.ts --only proxy --base DIR   the same, with DIR's recorder
 *            (DIR/cli.ts) in the same runs, the three rotating which goes first
 *
 * @module
 */
import { spawn, spawnSync } from "node:child_process";
import type { ChildProcess } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import path from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { replaceSection } from "./bench/benchmarks_md.ts";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const DENO = path.join(ROOT, "node_modules", ".bin", "deno");
const SECTION = "## Streamable HTTP (issue 11)";

const { values } = parseArgs({
  options: {
    sessions: { type: "string", default: "50" },
    calls: { type: "string", default: "20" },
    "per-worker": { type: "string", default: "4" },
    warmup: { type: "string", default: "8" },
    rounds: { type: "string", default: "7" },
    passes: { type: "string", default: "2" },
    events: { type: "string", default: "200" },
    interval: { type: "string", default: "5" },
    write: { type: "boolean", default: false },
    only: { type: "string", default: "warm,cold,proxy" },
    duration: { type: "string", default: "5" },
    "cold-rounds": { type: "string", default: "5" },
    "proxy-runs": { type: "string", default: "5" },
    "cpu-prof": { type: "string" },
    base: { type: "string" },
  },
});
const PARTS = new Set(values.only.split(","));
const DURATION_S = Number(values.duration);
const SESSIONS = Number(values.sessions);
const CALLS = Number(values.calls);
const PER_WORKER = Number(values["per-worker"]);
const WARMUP = Math.max(1, Number(values.warmup));
const ROUNDS = Number(values.rounds);
const PASSES = Math.max(1, Number(values.passes));

/** The shared clock of the SSE delay measurement (same in sse_ticker.ts). */
const now = () => performance.timeOrigin + performance.now();

interface Server {
  child: ChildProcess;
  url: string;
  stop: () => Promise<void>;
}

/** Starts a process and waits for the line that names its port or URL. */
function start(
  command: string[],
  pattern: RegExp,
  toUrl: (match: string) => string,
): Promise<Server> {
  return new Promise((resolve, reject) => {
    const child = spawn(command[0], command.slice(1), {
      cwd: ROOT,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let text = "";
    const exited = new Promise<void>((res) => child.once("exit", () => res()));
    const onData = (chunk: Buffer) => {
      text += chunk.toString();
      const match = pattern.exec(text);
      if (!match) return;
      child.stdout!.off("data", onData);
      child.stderr!.off("data", onData);
      child.stdout!.resume();
      child.stderr!.resume();
      resolve({
        child,
        url: toUrl(match[1]),
        stop: async () => {
          if (child.exitCode === null && child.signalCode === null) child.kill("SIGINT");
          await exited;
        },
      });
    };
    child.stdout!.on("data", onData);
    child.stderr!.on("data", onData);
    child.once(
      "exit",
      (code) => reject(new Error(`${command.join(" ")} exited (${code}):\n${text}`)),
    );
  });
}

const startFloor = () =>
  start(
    [DENO, "run", "-A", "--no-check", path.join(ROOT, "scripts/bench/http_floor.ts")],
    /listening on port (\d+)/,
    (port) => `http://127.0.0.1:${port}/mcp`,
  );
const startTicker = () =>
  start(
    [DENO, "run", "-A", "--no-check", path.join(ROOT, "scripts/bench/sse_ticker.ts")],
    /listening on port (\d+)/,
    (port) => `http://127.0.0.1:${port}/mcp`,
  );
const URL_LINE = /(http:\/\/127\.0\.0\.1:\d+\/\S*)/;
const startRecorder = (upstream: string, output: string, profileDir?: string, root = ROOT) =>
  start(
    [
      DENO,
      "run",
      "-A",
      "--no-check",
      ...(profileDir ? ["--cpu-prof", `--cpu-prof-dir=${profileDir}`] : []),
      path.join(root, "cli.ts"),
      "record",
      "-o",
      output,
      "--no-detectors",
      "--url",
      upstream,
    ],
    URL_LINE,
    (url) => url,
  );
const startReplay = (cassette: string, profileDir?: string, root = ROOT) =>
  start(
    [
      DENO,
      "run",
      "-A",
      "--no-check",
      ...(profileDir ? ["--cpu-prof", `--cpu-prof-dir=${profileDir}`] : []),
      path.join(root, "cli.ts"),
      "replay",
      cassette,
      "--listen",
      "127.0.0.1:0",
    ],
    URL_LINE,
    (url) => url,
  );
const startBareProxy = (upstream: string) =>
  start(
    ["node", path.join(ROOT, "scripts/bench/bare_proxy.mjs"), upstream],
    URL_LINE,
    (url) => url,
  );

const HEADERS = {
  "content-type": "application/json",
  accept: "application/json, text/event-stream",
};
const INITIALIZE = JSON.stringify({
  jsonrpc: "2.0",
  id: 0,
  method: "initialize",
  params: {
    protocolVersion: "2025-06-18",
    capabilities: {},
    clientInfo: { name: "bench", version: "1" },
  },
});
const INITIALIZED = JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" });
const CALL_BODIES = Array.from({ length: CALLS }, (_, i) =>
  JSON.stringify({
    jsonrpc: "2.0",
    id: i + 1,
    method: "tools/call",
    params: { name: "echo", arguments: { message: `m${i}` } },
  }));

/** What one load pass measured. */
interface Pass {
  requests: number;
  errors: number;
  seconds: number;
  latencies: number[];
}

/** One client session: initialize, initialized, the calls. */
async function session(url: string, pass: Pass): Promise<void> {
  const headers: Record<string, string> = { ...HEADERS };
  const post = async (body: string) => {
    const t0 = performance.now();
    const response = await fetch(url, { method: "POST", headers, body });
    const text = await response.text();
    pass.latencies.push(performance.now() - t0);
    pass.requests++;
    if (!response.ok || text.includes('"error"')) pass.errors++;
    return response;
  };
  const opened = await post(INITIALIZE);
  const sessionId = opened.headers.get("mcp-session-id");
  if (sessionId) headers["mcp-session-id"] = sessionId;
  headers["mcp-protocol-version"] = "2025-06-18";
  await post(INITIALIZED);
  for (const body of CALL_BODIES) await post(body);
}

/** `passes` times: `SESSIONS` workers, each running `PER_WORKER` sessions in turn. */
async function load(url: string, passes = 1): Promise<Pass> {
  const pass: Pass = { requests: 0, errors: 0, seconds: 0, latencies: [] };
  const t0 = performance.now();
  for (let round = 0; round < passes; round++) {
    await Promise.all(Array.from({ length: SESSIONS }, async () => {
      for (let i = 0; i < PER_WORKER; i++) await session(url, pass);
    }));
  }
  pass.seconds = (performance.now() - t0) / 1000;
  return pass;
}

/** `SESSIONS` workers opening sessions one after another until `seconds` have passed. */
async function loadFor(url: string, seconds: number): Promise<Pass> {
  const pass: Pass = { requests: 0, errors: 0, seconds: 0, latencies: [] };
  const t0 = performance.now();
  const deadline = t0 + seconds * 1000;
  await Promise.all(Array.from({ length: SESSIONS }, async () => {
    while (performance.now() < deadline) await session(url, pass);
  }));
  pass.seconds = (performance.now() - t0) / 1000;
  return pass;
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
}

interface Summary {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
}

function summarize(pass: Pass): Summary {
  const sorted = [...pass.latencies].sort((a, b) => a - b);
  return {
    rps: pass.requests / pass.seconds,
    p50: percentile(sorted, 0.5),
    p99: percentile(sorted, 0.99),
    errors: pass.errors,
  };
}

/** The round with the median throughput. */
function median(rounds: Summary[]): Summary {
  const sorted = [...rounds].sort((a, b) => a.rps - b.rps);
  return sorted[Math.floor(sorted.length / 2)];
}

/** Receive − send of each progress event of one ticker stream. */
async function sseDelays(url: string, events: number, interval: number): Promise<number[]> {
  const headers: Record<string, string> = { ...HEADERS };
  const opened = await fetch(url, { method: "POST", headers, body: INITIALIZE });
  await opened.text();
  headers["mcp-session-id"] = opened.headers.get("mcp-session-id") ?? "";
  const call = JSON.stringify({
    jsonrpc: "2.0",
    id: 1,
    method: "tools/call",
    params: { name: "tick", arguments: { count: events, interval } },
  });
  const response = await fetch(url, { method: "POST", headers, body: call });
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  const delays: number[] = [];
  let buffer = "";
  while (true) {
    const { done, value } = await reader.read();
    if (done) break;
    const received = now();
    buffer += value;
    let cut;
    while ((cut = buffer.indexOf("\n\n")) >= 0) {
      const block = buffer.slice(0, cut);
      buffer = buffer.slice(cut + 2);
      const data = block.split("\n").find((line) => line.startsWith("data: "));
      if (!data) continue;
      const message = JSON.parse(data.slice(6));
      if (message.method === "notifications/progress") {
        delays.push(received - Number(message.params.message));
      }
    }
  }
  return delays;
}

function delaySummary(delays: number[]) {
  const sorted = [...delays].sort((a, b) => a - b);
  return {
    n: sorted.length,
    p50: percentile(sorted, 0.5),
    p99: percentile(sorted, 0.99),
    max: sorted.at(-1) ?? NaN,
  };
}

const f2 = (n: number) => n.toFixed(2);
const f0 = (n: number) => Math.round(n).toLocaleString("en-US");

const CLIENT = typeof (globalThis as { Bun?: unknown }).Bun !== "undefined"
  ? `Bun ${(process.versions as Record<string, string>).bun}`
  : `Deno ${(globalThis as unknown as { Deno: { version: { deno: string } } }).Deno.version.deno}`;

/** The issue 11 section: warm rounds against one server each, their first pass, SSE delay. */
async function warmPart(dir: string, client = CLIENT) {
  const requestsPerPass = SESSIONS * PER_WORKER * (CALLS + 2);
  console.error(
    `load generator: ${client}; ${SESSIONS} sessions × ${PER_WORKER} in turn × (${CALLS} calls + 2) = ${requestsPerPass} requests per pass`,
  );

  const floor = await startFloor();
  // The replay's cassette: the floor recorded under this very load.
  const prepared = path.join(dir, "floor.cassette.jsonl");
  const preparing = await startRecorder(floor.url, prepared);
  await load(preparing.url);
  await preparing.stop();
  const replay = await startReplay(prepared);
  const recorder = await startRecorder(floor.url, path.join(dir, "live.cassette.jsonl"));
  const targets: [string, string][] = [["floor", floor.url], ["replay", replay.url], [
    "record",
    recorder.url,
  ]];
  const cold = new Map<string, Summary>();
  for (const [name, url] of targets) {
    cold.set(name, summarize(await load(url)));
    await load(url, WARMUP - 1);
  }

  const results = new Map<string, Summary[]>(targets.map(([name]) => [name, []]));
  for (let round = 0; round < ROUNDS; round++) {
    for (const [name, url] of targets) {
      const summary = summarize(await load(url, PASSES));
      results.get(name)!.push(summary);
      console.error(
        `round ${round + 1} ${name.padEnd(7)} ${f0(summary.rps)} req/s  p50 ${
          f2(summary.p50)
        } ms  p99 ${f2(summary.p99)} ms  errors ${summary.errors}`,
      );
    }
  }
  await Promise.all([replay.stop(), recorder.stop(), floor.stop()]);

  const events = Number(values.events);
  const interval = Number(values.interval);
  const ticker = await startTicker();
  const direct = delaySummary(await sseDelays(ticker.url, events, interval));
  const sseRecorder = await startRecorder(ticker.url, path.join(dir, "ticker.cassette.jsonl"));
  await sseDelays(sseRecorder.url, 20, interval); // warm-up
  const proxied = delaySummary(await sseDelays(sseRecorder.url, events, interval));
  await Promise.all([sseRecorder.stop(), ticker.stop()]);

  const floorM = median(results.get("floor")!);
  const replayM = median(results.get("replay")!);
  const recordM = median(results.get("record")!);
  const row = (name: string, s: Summary, base = floorM) =>
    `| ${name} | ${f0(s.rps)} | ${f2(s.rps / base.rps)}× | ${f2(s.p50)} | ${
      f2(s.p50 / base.p50)
    }× | ${f2(s.p99)} | ${s.errors} |`;
  const coldFloor = cold.get("floor")!;
  const cpu = os.cpus()[0]?.model ?? "unknown CPU";
  const section = [
    SECTION,
    "",
    `Measured with \`${client.startsWith("Bun") ? "bun" : "deno run -A"} scripts/bench_http.ts\` ` +
    `(load generator under ${client}; servers under Deno) on ${os.cpus().length} × ${cpu}, ${os.platform()}. ` +
    `${SESSIONS} concurrent sessions on loopback, each initialize → notifications/initialized → ${CALLS} tools/call, ` +
    `${PER_WORKER} sessions per worker in turn (${requestsPerPass} requests per pass), fetch with keep-alive; ` +
    `each target is warmed with ${WARMUP} passes, then targets alternate in ${ROUNDS} rounds of ${PASSES} passes, ` +
    "the median round is shown.",
    "",
    "### Throughput and latency against the floor (warm)",
    "",
    "| target | requests/s | vs floor | p50 ms | vs floor | p99 ms | errors |",
    "| --- | ---: | ---: | ---: | ---: | ---: | ---: |",
    row("floor (scripts/bench/http_floor.ts)", floorM),
    row("`replay --listen` (cassette of the floor)", replayM),
    row("`record --url` in front of the floor", recordM),
    "",
    "Targets: replay throughput ≥ 0.8× floor, p50 ≤ 1.25× floor.",
    "",
    "### Cold: the first pass of each target, before the JIT has warmed it",
    "",
    "| target | requests/s | vs floor | p50 ms | vs floor | p99 ms | errors |",
    "| --- | ---: | ---: | ---: | ---: | ---: | ---: |",
    row("floor", coldFloor, coldFloor),
    row("`replay --listen`", cold.get("replay")!, coldFloor),
    row("`record --url`", cold.get("record")!, coldFloor),
    "",
    "### SSE event delay while recording",
    "",
    `Upstream scripts/bench/sse_ticker.ts sends ${events} events ${interval} ms apart, each stamped ` +
    "`performance.timeOrigin + performance.now()`; the reader stamps arrival the same way (target ≤ 5 ms).",
    "",
    "| path | events | p50 ms | p99 ms | max ms |",
    "| --- | ---: | ---: | ---: | ---: |",
    `| upstream → client directly | ${direct.n} | ${f2(direct.p50)} | ${f2(direct.p99)} | ${
      f2(direct.max)
    } |`,
    `| upstream → \`record --url\` → client | ${proxied.n} | ${f2(proxied.p50)} | ${
      f2(proxied.p99)
    } | ${f2(proxied.max)} |`,
    "",
  ].join("\n");
  console.log(section);
  if (values.write) replaceSection(path.join(ROOT, "BENCHMARKS.md"), SECTION, section);
}

/** A floor recorded under one pass of the load: the cassette the replays serve. */
async function prepareCassette(dir: string): Promise<string> {
  const floor = await startFloor();
  const prepared = path.join(dir, "cold-floor.cassette.jsonl");
  const preparing = await startRecorder(floor.url, prepared);
  await load(preparing.url);
  await Promise.all([preparing.stop(), floor.stop()]);
  return prepared;
}

/** One server started fresh, loaded for DURATION_S seconds without warm-up, stopped. */
async function freshRun(started: Promise<Server>): Promise<Summary> {
  const server = await started;
  try {
    return summarize(await loadFor(server.url, DURATION_S));
  } finally {
    await server.stop();
  }
}

const logRun = (label: string, s: Summary) =>
  console.error(
    `${label.padEnd(22)} ${f0(s.rps)} req/s  p50 ${f2(s.p50)} ms  p99 ${
      f2(s.p99)
    } ms  errors ${s.errors}`,
  );
const medianOf = (list: Summary[], key: "rps" | "p50") => {
  const sorted = list.map((s) => s[key]).sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};
const spread = (values: number[]) => `${f2(Math.min(...values))}–${f2(Math.max(...values))}×`;

/** Issue 24: a fresh floor and a fresh replay, loaded cold, in alternating order. */
async function coldPart(dir: string): Promise<string> {
  const cassette = await prepareCassette(dir);
  const floors: Summary[] = [];
  const replays: Summary[] = [];
  const rounds = Number(values["cold-rounds"]);
  for (let round = 0; round < rounds; round++) {
    const runFloor = async () => floors.push(await freshRun(startFloor()));
    const profileDir = values["cpu-prof"] &&
      path.resolve(values["cpu-prof"], `cold-${round + 1}-replay`);
    const runReplay = async () => replays.push(await freshRun(startReplay(cassette, profileDir)));
    if (round % 2 === 0) await runFloor().then(runReplay);
    else await runReplay().then(runFloor);
    logRun(`cold ${round + 1} floor`, floors[round]);
    logRun(`cold ${round + 1} replay`, replays[round]);
  }
  const rps = medianOf(replays, "rps") / medianOf(floors, "rps");
  const p50 = medianOf(replays, "p50") / medianOf(floors, "p50");
  return [
    `HTTP replay, cold: each run a fresh process, ${SESSIONS} sessions (initialize → initialized → ` +
    `${CALLS} tools/call, one after another per worker) for ${DURATION_S} s, no warm-up; ` +
    `${rounds} rounds, floor and replay alternating which goes first; load generator ${CLIENT}.`,
    "",
    "| round | floor req/s | replay req/s | throughput / floor | floor p50 ms | replay p50 ms | p50 / floor | replay errors |",
    "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ...replays.map((r, i) =>
      `| ${i + 1} | ${f0(floors[i].rps)} | ${f0(r.rps)} | ${f2(r.rps / floors[i].rps)}× | ${
        f2(floors[i].p50)
      } | ${f2(r.p50)} | ${f2(r.p50 / floors[i].p50)}× | ${r.errors} |`
    ),
    "",
    "| figure | measured (medians; per-round range) | target |",
    "| --- | --- | --- |",
    `| HTTP replay throughput / floor, cold | ${f2(rps)}× (${
      spread(replays.map((r, i) => r.rps / floors[i].rps))
    }) | ≥ 0.80× |`,
    `| HTTP replay p50 / floor p50, cold | ${f2(p50)}× (${
      spread(replays.map((r, i) => r.p50 / floors[i].p50))
    }) | ≤ 1.25× |`,
  ].join("\n");
}

/** This replay against another checkout's (`--base DIR`), each fresh and cold, alternating. */
async function basePart(dir: string): Promise<string> {
  if (!values.base) throw new Error("--only base needs --base DIR");
  const baseRoot = path.resolve(values.base);
  const cassette = await prepareCassette(dir);
  const bases: Summary[] = [];
  const replays: Summary[] = [];
  const rounds = Number(values["cold-rounds"]);
  for (let round = 0; round < rounds; round++) {
    const runBase = async () =>
      bases.push(await freshRun(startReplay(cassette, undefined, baseRoot)));
    const runReplay = async () => replays.push(await freshRun(startReplay(cassette)));
    if (round % 2 === 0) await runBase().then(runReplay);
    else await runReplay().then(runBase);
    logRun(`base ${round + 1} base`, bases[round]);
    logRun(`base ${round + 1} replay`, replays[round]);
  }
  const rps = medianOf(replays, "rps") / medianOf(bases, "rps");
  return [
    `HTTP replay against ${baseRoot}: fresh processes, ${SESSIONS} sessions for ${DURATION_S} s, ` +
    `no warm-up; ${rounds} rounds alternating which goes first; load generator ${CLIENT}.`,
    "",
    "| round | base req/s | replay req/s | replay / base |",
    "| --- | ---: | ---: | ---: |",
    ...replays.map((r, i) =>
      `| ${i + 1} | ${f0(bases[i].rps)} | ${f0(r.rps)} | ${f2(r.rps / bases[i].rps)}× |`
    ),
    "",
    `| HTTP replay throughput / base | ${f2(rps)}× (${
      spread(replays.map((r, i) => r.rps / bases[i].rps))
    }) |`,
  ].join("\n");
}

/**
 * Issue 24: a fresh recorder and a fresh bare proxy in front of one floor,
 * alternating; with `--base DIR`, another checkout's recorder too, each run
 * rotating which of the three goes first.
 */
async function proxyPart(dir: string): Promise<string> {
  const floor = await startFloor();
  await load(floor.url); // the upstream both share is warm before either is measured
  const recorders: Summary[] = [];
  const proxies: Summary[] = [];
  const bases: Summary[] = [];
  const runs = Number(values["proxy-runs"]);
  const baseRoot = values.base && path.resolve(values.base);
  try {
    for (let run = 0; run < runs; run++) {
      const output = path.join(dir, `proxy-run-${run}.cassette.jsonl`);
      const profileDir = values["cpu-prof"] &&
        path.resolve(values["cpu-prof"], `proxy-${run + 1}-recorder`);
      const runRecorder = async () =>
        recorders.push(await freshRun(startRecorder(floor.url, output, profileDir)));
      const runProxy = async () => proxies.push(await freshRun(startBareProxy(floor.url)));
      const runBase = async () =>
        bases.push(
          await freshRun(
            startRecorder(
              floor.url,
              path.join(dir, `proxy-base-${run}.cassette.jsonl`),
              undefined,
              baseRoot,
            ),
          ),
        );
      const order = baseRoot ? [runProxy, runRecorder, runBase] : [runProxy, runRecorder];
      for (let i = 0; i < order.length; i++) {
        await order[(i + (baseRoot ? run : run % 2)) % order.length]();
      }
      logRun(`run ${run + 1} bare proxy`, proxies[run]);
      logRun(`run ${run + 1} recorder`, recorders[run]);
      if (baseRoot) logRun(`run ${run + 1} base recorder`, bases[run]);
    }
  } finally {
    await floor.stop();
  }
  const rps = recorders.map((r, i) => r.rps / proxies[i].rps);
  const p50 = recorders.map((r, i) => r.p50 / proxies[i].p50);
  const baseRows = baseRoot
    ? [
      "",
      `Base recorder: ${baseRoot}, in the same runs.`,
      "",
      "| run | base req/s | base / proxy | base p50 ms | base p50 / proxy | recorder / base |",
      "| --- | ---: | ---: | ---: | ---: | ---: |",
      ...bases.map((b, i) =>
        `| ${i + 1} | ${f0(b.rps)} | ${f2(b.rps / proxies[i].rps)}× | ${f2(b.p50)} | ${
          f2(b.p50 / proxies[i].p50)
        }× | ${f2(recorders[i].rps / b.rps)}× |`
      ),
      "",
      `| HTTP base recorder throughput / bare proxy | ${
        bases.map((b, i) => `${f2(b.rps / proxies[i].rps)}×`).join(", ")
      } |`,
      `| HTTP base recorder p50 / bare proxy p50 | ${
        bases.map((b, i) => `${f2(b.p50 / proxies[i].p50)}×`).join(", ")
      } |`,
    ]
    : [];
  return [
    `HTTP recorder (\`record --url --no-detectors\`, under Deno) vs scripts/bench/bare_proxy.mjs (Node ${spawnNodeVersion()}), both in front of one warm floor, each run a fresh process, ${SESSIONS} sessions for ${DURATION_S} s, ` +
    `no warm-up, alternating which goes first; load generator ${CLIENT}.`,
    "",
    "| run | bare proxy req/s | recorder req/s | throughput / proxy | proxy p50 ms | recorder p50 ms | p50 / proxy | recorder errors |",
    "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ...recorders.map((r, i) =>
      `| ${i + 1} | ${f0(proxies[i].rps)} | ${f0(r.rps)} | ${f2(rps[i])}× | ${
        f2(proxies[i].p50)
      } | ${f2(r.p50)} | ${f2(p50[i])}× | ${r.errors} |`
    ),
    "",
    "| figure | measured (each run) | target |",
    "| --- | --- | --- |",
    `| HTTP recorder throughput / bare proxy | ${
      rps.map((v) => `${f2(v)}×`).join(", ")
    } | ≥ 0.90× |`,
    `| HTTP recorder p50 / bare proxy p50 | ${p50.map((v) => `${f2(v)}×`).join(", ")} | ≤ 1.25× |`,
    ...baseRows,
  ].join("\n");
}

function spawnNodeVersion(): string {
  const result = spawnSync("node", ["--version"], { encoding: "utf8" });
  return (result.stdout || "?").trim();
}

async function main() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-http-"));
  try {
    if (PARTS.has("warm")) await warmPart(dir);
    if (PARTS.has("cold")) console.log((await coldPart(dir)) + "\n");
    if (PARTS.has("base")) console.log((await basePart(dir)) + "\n");
    if (PARTS.has("proxy")) console.log((await proxyPart(dir)) + "\n");
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

await main();
process.exit(0);
