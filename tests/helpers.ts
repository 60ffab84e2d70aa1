/**
 * Shared by the end-to-end tests: where things are, and how to run a
 * command to completion.
 */
import { spawn } from "node:child_process";
import { after } from "node:test";
import type { TestContext } from "node:test";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import assert from "node:assert/strict";
import { tmpdir } from "node:os";
import path from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";

/** The repository root. */
export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
/** The Deno binary from node_modules. */
export const DENO = path.join(ROOT, "node_modules", ".bin", "deno");
/** The CLI as a command line prefix. */
export const CLI = [DENO, "run", "-A", "--no-check", path.join(ROOT, "cli.ts")];
/** Node for the reference servers: this process's, unless this is Deno or Bun. */
export const NODE = process.execPath.includes("deno") || process.execPath.includes("bun")
  ? "node"
  : process.execPath;
/** The reference server over stdio. */
export const EVERYTHING = [
  NODE,
  path.join(ROOT, "node_modules/@modelcontextprotocol/server-everything/dist/index.js"),
  "stdio",
];
/** The SDK v1 client session script. */
export const SDK_SESSION = [
  DENO,
  "run",
  "-A",
  "--no-check",
  path.join(ROOT, "tests/fixtures/sdk_session.ts"),
];

/** Folders {@linkcode tempDir} made that are still to be removed. */
const madeDirs = new Set<string>();
let removalAtExit = false;

function removeMadeDirs(): void {
  for (const dir of madeDirs) rmSync(dir, { recursive: true, force: true });
  madeDirs.clear();
}

/** A client's `initialize` request as the tests send it (2025-11-25, no capabilities), from `client`. */
export function initializeRequest(id: number | string = 1, client = "t"): {
  jsonrpc: "2.0";
  id: number | string;
  method: "initialize";
  params: {
    protocolVersion: string;
    capabilities: object;
    clientInfo: { name: string; version: string };
  };
} {
  return {
    jsonrpc: "2.0",
    id,
    method: "initialize",
    params: {
      protocolVersion: "2025-11-25",
      capabilities: {},
      clientInfo: { name: client, version: "1" },
    },
  };
}

/**
 * A fresh temporary directory, removed with all it holds once the test file
 * is done (or the script that made it exits). Under `deno test` an `after`
 * hook registered from anywhere, even inside a test, runs when the file is
 * done, and `exit` handlers never run; Bun runs an `after` registered inside
 * a test when that test ends (too early for a folder a later test still
 * reads) and runs `exit` handlers, as Node and `deno run` do.
 */
export function tempDir(prefix = "mcp-cassette-test-"): string {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  madeDirs.add(dir);
  if ("Deno" in globalThis) after(removeMadeDirs);
  if (!removalAtExit) {
    removalAtExit = true;
    process.once("exit", removeMadeDirs);
  }
  return dir;
}

/** The line {@linkcode skipTest} prints; scripts/ci_summary.ts counts it. */
export const SKIP_MARK = "mcp-cassette-skip:";

/**
 * Skips the running test. Use it instead of `t.skip()`: under Deno a test
 * that calls `t.skip()` is reported as passed, so .ci/run counts skips from
 * the line this prints (Bun reports the skip itself as well).
 */
export function skipTest(t: TestContext, reason: string): void {
  console.log(`${SKIP_MARK} ${t.name} :: ${reason}`);
  t.skip(reason);
}

/** What a finished command left. */
export interface RunResult {
  code: number | null;
  signal: string | null;
  stdout: string;
  stderr: string;
}

/** Runs a command to completion (killed after `timeoutMs`). */
export function run(
  command: readonly string[],
  /** `env` values of undefined remove the variable. */
  options: {
    input?: string;
    cwd?: string;
    env?: Record<string, string | undefined>;
    timeoutMs?: number;
  } = {},
): Promise<RunResult> {
  const env: Record<string, string | undefined> = { ...process.env, NO_COLOR: "1", ...options.env };
  for (const key of Object.keys(env)) if (env[key] === undefined) delete env[key];
  return new Promise((resolve, reject) => {
    const child = spawn(command[0], command.slice(1), {
      cwd: options.cwd ?? ROOT,
      env: env as Record<string, string>,
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk) => (stdout += chunk));
    child.stderr.setEncoding("utf8").on("data", (chunk) => (stderr += chunk));
    const timer = setTimeout(() => child.kill("SIGKILL"), options.timeoutMs ?? 60_000);
    child.on("error", reject);
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
    child.stdin.on("error", () => {});
    child.stdin.end(options.input ?? "");
  });
}

/**
 * Other tools' sample cassettes, written by those tools (see the README
 * there): inside the repository, so a fresh clone's tests need nothing beside it.
 */
export const FOREIGN = path.join(ROOT, "tests", "fixtures", "foreign");

/** What tests/fixtures/sdk_session.ts prints. */
export interface SdkSession {
  results: Record<string, unknown>;
  asked: unknown[];
  progress: unknown[];
}

/**
 * The progress notifications a cassette holds, as the SDK client hands them
 * to its `onprogress` handler.
 */
export function recordedProgress(cassette: string): unknown[] {
  return readFileSync(cassette, "utf8").split("\n").filter((line) =>
    line.includes('"notifications/progress"')
  )
    .map((line) => {
      const { progress, total, message } = JSON.parse(line).msg.params;
      return message === undefined ? { progress, total } : { progress, total, message };
    });
}

/**
 * Asserts a replayed SDK session equals the live one: the same results and
 * the same questions asked. Progress is compared with what the server sent:
 * the replay must show all of it, while the live client may have missed the
 * last update (the SDK dispatches notifications a tick after responses, and a
 * server that sends its last progress right before the result loses the race).
 */
export function assertSameSession(replayed: SdkSession, live: SdkSession, cassette: string): void {
  assert.deepEqual(replayed.results, live.results);
  assert.deepEqual(replayed.asked, live.asked);
  const sent = recordedProgress(cassette);
  assert.deepEqual(replayed.progress, sent);
  assert.deepEqual(live.progress, sent.slice(0, live.progress.length));
}
