/**
 * Shared by the reliability tests: the fixture server, a line-oriented
 * client over a real subprocess, RSS sampling, a seeded PRNG, and the
 * figures the tests print for docs/reliability.md.
 */
import { spawn } from "node:child_process";
import type { ChildProcessWithoutNullStreams } from "node:child_process";
import { appendFileSync, existsSync, readFileSync } from "node:fs";
import path from "node:path";
import process from "node:process";
import assert from "node:assert/strict";
import { CLI, DENO, initializeRequest, ROOT, run, tempDir } from "../helpers.ts";

/** `MCP_CASSETTE_LONG=1` runs the long versions (set by .ci/run). */
export const LONG = process.env.MCP_CASSETTE_LONG === "1";

/** The fixture server (tests/fixtures/reliability/server.ts) as a command line prefix. */
export const FIXTURE = [
  DENO,
  "run",
  "-A",
  "--no-check",
  path.join(ROOT, "tests/fixtures/reliability/server.ts"),
];

/** The seed of this run's random choices (`MCP_CASSETTE_SEED` to repeat one). */
export const SEED = Number(process.env.MCP_CASSETTE_SEED ?? Date.now() % 1_000_000);

/**
 * Seeds the kill tests run every time besides {@linkcode SEED}: kill points
 * that are the same in every run, early and late in the session.
 */
export const FIXED_SEEDS = [20261201, 424242] as const;

/** Bun: the binary the npm `bun` package installed, else `bun` on PATH. */
export const BUN = existsSync(path.join(ROOT, "node_modules", "bun", "bin", "bun.exe"))
  ? path.join(ROOT, "node_modules", "bun", "bin", "bun.exe")
  : "bun";

/** A way to run the stdio recorder: the CLI's prefix up to the command name, and its env. */
export interface RecorderRuntime {
  name: string;
  cli: readonly string[];
  env: Record<string, string>;
}

/**
 * The stdio recorder on both of its copy paths: Deno copies on threads of
 * its own (Linux), or on its main thread when told to, the path Bun, Node,
 * macOS and Windows always take; Bun runs that path in another runtime.
 */
export const RECORDER_RUNTIMES: readonly RecorderRuntime[] = [
  { name: "Deno, on its own threads", cli: CLI, env: {} },
  {
    name: "Deno, on its main thread",
    cli: CLI,
    env: { MCP_CASSETTE_RECORDER_THREADS: "0" },
  },
  { name: "Bun, on its main thread", cli: [BUN, path.join(ROOT, "cli.ts")], env: {} },
];

/** A small deterministic PRNG (mulberry32): numbers in [0, 1). */
export function rng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Prints one measured figure (and appends it, as a JSON line, to
 * `$MCP_CASSETTE_FIGURES` when set): the numbers docs/reliability.md quotes.
 * Never asserted on: timing belongs in reports, not in pass/fail.
 */
export function figure(name: string, value: Record<string, unknown>): void {
  const line = JSON.stringify({ figure: name, ...value });
  console.log(`reliability: ${line}`);
  const file = process.env.MCP_CASSETTE_FIGURES;
  if (file) appendFileSync(file, line + "\n");
}

/** The resident set size of a process, in KiB (Linux /proc), or undefined once it is gone. */
export function rssKiB(pid: number): number | undefined {
  try {
    const match = /VmRSS:\s+(\d+)\s+kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return match ? Number(match[1]) : undefined;
  } catch {
    return undefined;
  }
}

/** Samples a process's RSS until stopped; resolves with the samples (KiB). */
export function sampleRss(pid: number, everyMs = 50): { stop: () => number[] } {
  const samples: number[] = [];
  const timer = setInterval(() => {
    const value = rssKiB(pid);
    if (value !== undefined) samples.push(value);
  }, everyMs);
  return {
    stop() {
      clearInterval(timer);
      return samples;
    },
  };
}

/** Checks `done()` every 20 ms until it holds, failing after `timeoutMs`. */
export async function pollUntil(
  done: () => boolean,
  what: string,
  timeoutMs = 10_000,
): Promise<void> {
  const start = Date.now();
  while (!done()) {
    if (Date.now() - start > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** A subprocess spoken to line by line, its stdout kept as lines and as raw bytes. */
export class LineProcess {
  readonly child: ChildProcessWithoutNullStreams;
  /** Complete lines received, without their `\n`. */
  readonly lines: string[] = [];
  readonly chunks: Buffer[] = [];
  stderr = "";
  #partial: Buffer[] = [];
  #parsed: {
    id?: unknown;
    result?: unknown;
    error?: { code: number; message: string };
    method?: string;
  }[] = [];
  #parsedLines = 0;
  #waiters = new Set<() => void>();
  readonly closed: Promise<{ code: number | null; signal: string | null }>;

  constructor(
    command: readonly string[],
    options: { keepBytes?: boolean; env?: Record<string, string> } = {},
  ) {
    this.child = spawn(command[0], command.slice(1), {
      cwd: ROOT,
      env: { ...process.env, NO_COLOR: "1", ...options.env },
      stdio: ["pipe", "pipe", "pipe"],
    });
    this.child.stdin.on("error", () => {});
    this.child.stdout.on("data", (chunk: Buffer) => {
      if (options.keepBytes) this.chunks.push(chunk);
      // Split on the bytes, decode whole lines: a long line costs linear time, not quadratic.
      let start = 0;
      let newline = chunk.indexOf(10);
      while (newline !== -1) {
        this.#partial.push(chunk.subarray(start, newline));
        this.lines.push(Buffer.concat(this.#partial).toString("utf8"));
        this.#partial = [];
        start = newline + 1;
        newline = chunk.indexOf(10, start);
      }
      if (start < chunk.length) this.#partial.push(chunk.subarray(start));
      this.#wake();
    });
    this.child.stderr.setEncoding("utf8").on("data", (chunk: string) => (this.stderr += chunk));
    this.closed = new Promise((resolve) => {
      this.child.on("close", (code, signal) => {
        this.#wake();
        resolve({ code, signal });
      });
    });
  }

  #wake() {
    for (const wake of [...this.#waiters]) wake();
  }

  /** Sends a message as one line, or bytes as they are. */
  send(message: unknown): void {
    if (message instanceof Uint8Array) this.child.stdin.write(message);
    else this.child.stdin.write(JSON.stringify(message) + "\n");
  }

  /** The lines that parse as JSON objects. */
  messages(): {
    id?: unknown;
    result?: unknown;
    error?: { code: number; message: string };
    method?: string;
  }[] {
    for (; this.#parsedLines < this.lines.length; this.#parsedLines++) {
      try {
        const value = JSON.parse(this.lines[this.#parsedLines]);
        if (value !== null && typeof value === "object" && !Array.isArray(value)) {
          this.#parsed.push(value);
        }
      } catch {
        // Not JSON: kept in lines only.
      }
    }
    return this.#parsed;
  }

  /** Waits until `done()` holds (checked on every chunk), failing after `timeoutMs`. */
  async until(done: () => boolean, what: string, timeoutMs = 30_000): Promise<void> {
    if (done()) return;
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#waiters.delete(check);
        reject(new Error(`timed out waiting for ${what}; stderr: ${this.stderr.slice(-2000)}`));
      }, timeoutMs);
      const check = () => {
        if (done()) {
          clearTimeout(timer);
          this.#waiters.delete(check);
          resolve();
        }
      };
      this.#waiters.add(check);
    });
  }

  /** Waits for the answer with this id. */
  async answer(
    id: unknown,
    timeoutMs = 30_000,
  ): Promise<{ result?: unknown; error?: { code: number; message: string } }> {
    let found: { result?: unknown; error?: { code: number; message: string } } | undefined;
    await this.until(
      () => {
        found = this.messages().find((message) =>
          message.id === id && message.method === undefined
        );
        return found !== undefined;
      },
      `the answer to ${JSON.stringify(id)}`,
      timeoutMs,
    );
    return found!;
  }

  /** Ends stdin and waits for the exit. */
  async finish(): Promise<{ code: number | null; signal: string | null }> {
    this.child.stdin.end();
    return await this.closed;
  }
}

/** An initialize request as the fixture expects it. */
export function initialize(id: number | string = 1): unknown {
  return initializeRequest(id, "reliability");
}

/** A tools/call request. */
export function call(id: number | string, name: string, args: unknown = {}): unknown {
  return { jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: args } };
}

/**
 * Kills a recorder `kills` times at seeded random points (0–300 ms into a
 * busy session), each into a fresh cassette in a temp folder, and checks that
 * `lint` reports every torn tail a kill left. `killOnce` does one kill and
 * its own checks of what the cassette kept.
 */
export async function killAtRandomPoints<T extends { torn: boolean }>(
  kills: number,
  prefix: string,
  killOnce: (cassette: string, delayMs: number) => Promise<T>,
  seed: number = SEED,
): Promise<{ outcomes: T[]; torn: string[] }> {
  const dir = tempDir(prefix);
  const random = rng(seed);
  const outcomes: T[] = [];
  const torn: string[] = [];
  for (let i = 0; i < kills; i++) {
    const cassette = path.join(dir, `kill-${i}.cassette.jsonl`);
    const delay = Math.floor(random() * 300);
    try {
      outcomes.push(await killOnce(cassette, delay));
    } catch (error) {
      throw new Error(
        `kill ${i} (seed ${seed}, ${delay} ms after initialize): ${(error as Error).message}`,
      );
    }
    if (outcomes.at(-1)!.torn) torn.push(cassette);
  }
  // A torn tail, when a kill left one, is what lint reports.
  for (const cassette of torn) {
    const lint = await run([...CLI, "lint", "--format", "json", cassette]);
    assert.match(lint.stdout + lint.stderr, /MCL008/);
  }
  return { outcomes, torn };
}
