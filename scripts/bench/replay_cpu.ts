/**
 * The HTTP replay's own CPU cost per request, before and after a change, in
 * one run: on a machine shared with other work, wall-clock throughput moves
 * with the neighbours' load (rounds vary 0.4–1.6×), while the CPU time a
 * process spends on the same requests barely does.
 *
 * Records one cassette (scripts/bench/http_floor.ts behind `record --url`,
 * `--sessions` sessions of initialize → initialized → 20 `tools/call`), then
 * for `--rounds` rounds runs each tree's replay in a fresh Deno process, the
 * order alternating: the tree's `replayHandler` driven in process (no
 * sockets: what is measured is the replay, not the network) with the
 * recording's redaction rules as `replay` re-applies them, `--warmup`
 * sessions, then `--sessions` sessions timed by `process.cpuUsage()`.
 *
 * Usage: deno run -A scripts/bench/replay_cpu.ts --base DIR [--rounds 9] [--sessions 400] [--warmup 100]
 *   (DIR: another checkout, e.g. a commit exported with `git archive`)
 *        deno run -A scripts/bench/replay_cpu.ts --journal-off [...]
 *   (this tree against itself with a journal that keeps nothing, `journalLimit: 0`:
 *   the cost of keeping the journal alone)
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

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const DENO = path.join(ROOT, "node_modules", ".bin", "deno");
const CALLS = 20;

const initialize = JSON.stringify({
  jsonrpc: "2.0",
  id: 0,
  method: "initialize",
  params: {
    protocolVersion: "2025-06-18",
    capabilities: {},
    clientInfo: { name: "b", version: "1" },
  },
});
const initialized = JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" });
const calls = Array.from({ length: CALLS }, (_, i) =>
  JSON.stringify({
    jsonrpc: "2.0",
    id: i + 1,
    method: "tools/call",
    params: { name: "echo", arguments: { message: `m${i}` } },
  }));

type Fetch = (request: Request) => Promise<Response>;

/** One client session against `fetch` at `url`. */
async function session(fetch: Fetch, url: string): Promise<void> {
  const headers: Record<string, string> = {
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
    host: new URL(url).host,
  };
  const post = async (body: string) => {
    const response = await fetch(new Request(url, { method: "POST", headers, body }));
    await response.text();
    return response;
  };
  const opened = await post(initialize);
  const id = opened.headers.get("mcp-session-id");
  if (id) headers["mcp-session-id"] = id;
  headers["mcp-protocol-version"] = "2025-06-18";
  await post(initialized);
  for (const body of calls) await post(body);
}

/** The child: one tree's replay, in process; prints `{ cpuUsPerRequest, wallRps }`. */
async function child(
  tree: string,
  cassette: string,
  warmup: number,
  sessions: number,
  journalLimit?: number,
) {
  const { loadCassette } = await import(path.join(tree, "src/cassette/reader.ts"));
  const { ReplayEngine } = await import(path.join(tree, "src/replay/engine.ts"));
  const { replayHandler } = await import(path.join(tree, "src/replay/http.ts"));
  const { createReplayRedactor } = await import(path.join(tree, "src/redact/mod.ts"));
  const loaded = await loadCassette(cassette);
  // As `replay` does: the recording's redaction rules, re-applied to what the client sends,
  // with the recorder's digest key when the tree knows of one.
  let info = loaded.header.redaction;
  const keyFile = path.join(tree, "src/commands/redact_key.ts");
  let digestKey: string | undefined;
  if (info?.digest && fs.existsSync(keyFile)) {
    digestKey = await (await import(keyFile)).replayDigestKey(cassette, info.digest);
    // No key, or another, and no recorded request needs it: replay goes on without it.
    if (digestKey === undefined) info = { ...info, digest: undefined };
  }
  const redactor = info ? await createReplayRedactor(info, { digestKey }) : undefined;
  const rewriteRequest = redactor && ((message: unknown) => redactor.message(message, "c2s"));
  const options = journalLimit === undefined
    ? { rewriteRequest }
    : { rewriteRequest, journalLimit };
  const handler = replayHandler(new ReplayEngine(loaded, options));
  const url = `http://127.0.0.1${handler.path}`;
  const fetch: Fetch = (request) => handler.fetch(request);
  for (let i = 0; i < warmup; i++) await session(fetch, url);
  const cpu = process.cpuUsage();
  const t0 = performance.now();
  for (let i = 0; i < sessions; i++) await session(fetch, url);
  const wallMs = performance.now() - t0;
  const used = process.cpuUsage(cpu);
  const requests = sessions * (CALLS + 2);
  console.log(JSON.stringify({
    cpuUsPerRequest: (used.user + used.system) / requests,
    wallRps: requests / wallMs * 1000,
  }));
  handler.finish();
}

/** Records the cassette: the floor behind `record --url`, driven over real sockets. */
async function record(file: string, sessions: number): Promise<void> {
  const started = (command: string[], pattern: RegExp) =>
    new Promise<{ url: string; stop: () => Promise<void> }>((resolve, reject) => {
      const proc = spawn(command[0], command.slice(1), { stdio: ["ignore", "pipe", "pipe"] });
      let text = "";
      const exited = new Promise<void>((done) => proc.once("exit", () => done()));
      const look = (chunk: Buffer) => {
        text += chunk;
        const found = pattern.exec(text);
        if (found) {
          resolve({ url: found[1], stop: () => (proc.kill("SIGINT"), exited) });
        }
      };
      proc.stdout!.on("data", look);
      proc.stderr!.on("data", look);
      proc.once(
        "exit",
        (code) => reject(new Error(`${command.join(" ")} exited ${code}: ${text}`)),
      );
    });
  const run = [DENO, "run", "-A", "--no-check"];
  const floor = await started(
    [...run, path.join(ROOT, "scripts/bench/http_floor.ts")],
    /listening on port (\d+)/,
  );
  const upstream = `http://127.0.0.1:${floor.url}/mcp`;
  const recorder = await started(
    [...run, path.join(ROOT, "cli.ts"), "record", "-o", file, "--no-detectors", "--url", upstream],
    /(http:\/\/127\.0\.0\.1:\d+\/\S*)/,
  );
  for (let i = 0; i < sessions; i++) await session(globalThis.fetch, recorder.url);
  await recorder.stop();
  await floor.stop();
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1];

async function main() {
  const { values } = parseArgs({
    options: {
      base: { type: "string" },
      rounds: { type: "string", default: "9" },
      sessions: { type: "string", default: "400" },
      warmup: { type: "string", default: "100" },
      child: { type: "string" },
      cassette: { type: "string" },
      "journal-off": { type: "boolean", default: false },
      "journal-limit": { type: "string" },
    },
  });
  const sessions = Number(values.sessions);
  const warmup = Number(values.warmup);
  if (values.child) {
    const limit = values["journal-limit"];
    return await child(
      values.child,
      values.cassette!,
      warmup,
      sessions,
      limit ? Number(limit) : undefined,
    );
  }
  const off = values["journal-off"];
  if (!values.base && !off) throw new Error("--base DIR or --journal-off is needed");
  const base = off ? ROOT : path.resolve(values.base!);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "mcp-cassette-replay-cpu-"));
  const cassette = path.join(dir, "floor.cassette.jsonl");
  await record(cassette, warmup + sessions);
  const runs: Record<string, { cpuUsPerRequest: number; wallRps: number }[]> = {
    base: [],
    this: [],
  };
  const measure = (name: "base" | "this") => {
    const tree = name === "base" ? base : ROOT;
    const args = ["run", "-A", "--no-check", fileURLToPath(import.meta.url), "--child", tree];
    args.push("--cassette", cassette, "--sessions", String(sessions), "--warmup", String(warmup));
    if (off && name === "base") args.push("--journal-limit", "0");
    const out = spawnSync(DENO, args, { encoding: "utf8" });
    if (out.status !== 0) throw new Error(out.stderr);
    const figures = JSON.parse(out.stdout.trim().split("\n").pop()!);
    runs[name].push(figures);
    console.error(
      `${name.padEnd(4)} ${figures.cpuUsPerRequest.toFixed(1)} µs CPU/request, ${
        figures.wallRps.toFixed(0)
      } req/s`,
    );
  };
  for (let round = 0; round < Number(values.rounds); round++) {
    const order: ("base" | "this")[] = round % 2 === 0 ? ["base", "this"] : ["this", "base"];
    for (const name of order) measure(name);
  }
  fs.rmSync(dir, { recursive: true, force: true });
  // Each round's own ratio: its two runs met the same neighbours, more or less.
  const paired = median(runs.this.map((r, i) => r.cpuUsPerRequest / runs.base[i].cpuUsPerRequest));
  const cpu = (name: string) => median(runs[name].map((r) => r.cpuUsPerRequest));
  const rps = (name: string) => median(runs[name].map((r) => r.wallRps));
  console.log(
    [
      `| HTTP replay in process (${sessions} sessions × 22 requests, ${warmup} warm-up; medians of ${values.rounds} rounds, alternating) | ${
        off ? "journal off" : "base"
      } | this tree | this / ${off ? "off" : "base"} |`,
      "| --- | ---: | ---: | ---: |",
      `| CPU per request | ${cpu("base").toFixed(1)} µs | ${cpu("this").toFixed(1)} µs | ${
        (cpu("this") / cpu("base")).toFixed(2)
      }× (rounds' own ratios: median ${paired.toFixed(2)}×) |`,
      `| throughput (wall) | ${rps("base").toFixed(0)} req/s | ${rps("this").toFixed(0)} req/s | ${
        (rps("this") / rps("base")).toFixed(2)
      }× |`,
    ].join("\n"),
  );
}

await main();
