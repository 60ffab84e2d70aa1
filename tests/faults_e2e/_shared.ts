/**
 * Shared by the fault, pacing and redaction proofs: the dedicated SDK client,
 * how to run it against `record` or `replay`, and how to run the CLI with its
 * stdin left open (to prove a bad input is refused before stdin is read).
 */
import { spawn } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import process from "node:process";
import { CLI, DENO, EVERYTHING, ROOT, run } from "../helpers.ts";
import type { RunResult } from "../helpers.ts";

/** The fault client script as a command line prefix. */
export const FAULT_CLIENT = [
  DENO,
  "run",
  "-A",
  "--no-check",
  path.join(ROOT, "tests/fixtures/faults/fault_client.ts"),
];

// The client's own types; a type-only import does not run the script.
import type { Call, Outcome } from "../fixtures/faults/fault_client.ts";
export type { Call, Outcome };

/** The client's whole output. */
export interface ClientRun {
  /** The client process's own result. */
  result: RunResult;
  /** What the server (replay) wrote on stderr, when `serverStderr` was given. */
  serverStderr: string;
  calls: Outcome[];
  byLabel: Map<string, Outcome>;
  closedByServer: boolean;
}

/** Runs the fault client against a server command line (stdio) or a URL (Streamable HTTP). */
export async function runClient(
  calls: readonly Call[],
  server: readonly string[] | { url: string; headers?: string[] },
  options: { timeoutMs?: number; serverEnv?: Record<string, string>; serverStderr?: string } = {},
): Promise<ClientRun> {
  const result = await run([
    ...FAULT_CLIENT,
    "--calls",
    JSON.stringify(calls),
    "--timeout-ms",
    String(options.timeoutMs ?? 3000),
    ...(options.serverEnv ? ["--server-env", JSON.stringify(options.serverEnv)] : []),
    ...(options.serverStderr ? ["--server-stderr", options.serverStderr] : []),
    ...("url" in server
      ? ["--url", server.url, ...(server.headers ?? []).flatMap((header) => ["--header", header])]
      : ["--", ...server]),
  ]);
  if (result.code !== 0) throw new Error(`fault client exited ${result.code}: ${result.stderr}`);
  const parsed = JSON.parse(result.stdout) as { calls: Outcome[]; closedByServer: boolean };
  return {
    result,
    calls: parsed.calls,
    byLabel: new Map(parsed.calls.map((call) => [call.label, call])),
    closedByServer: parsed.closedByServer,
    serverStderr: options.serverStderr && existsSync(options.serverStderr)
      ? readFileSync(options.serverStderr, "utf8")
      : "",
  };
}

/** `record -o CASSETTE [flags] -- server-everything` as a server command line. */
export function recordCommand(cassette: string, flags: readonly string[] = []): string[] {
  return [...CLI, "record", ...flags, "-o", cassette, "--", ...EVERYTHING];
}

/** `replay [flags] CASSETTE` as a server command line. */
export function replayCommand(cassette: string, flags: readonly string[] = []): string[] {
  return [...CLI, "replay", ...flags, cassette];
}

/** Writes JSON (or any text) to a file in `dir` and returns its path. */
export function writeFile(dir: string, name: string, content: unknown): string {
  const file = path.join(dir, name);
  writeFileSync(file, typeof content === "string" ? content : JSON.stringify(content, null, 2));
  return file;
}

/**
 * Runs a command with its stdin held open and never written to. A command
 * that exits on its own here did not wait for its input; one that would have
 * waited is killed after `timeoutMs` (and reports `signal: "SIGKILL"`).
 */
export function runWithOpenStdin(
  command: readonly string[],
  timeoutMs = 15_000,
): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command[0], command.slice(1), {
      cwd: ROOT,
      env: { ...process.env, NO_COLOR: "1" },
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk) => (stdout += chunk));
    child.stderr.setEncoding("utf8").on("data", (chunk) => (stderr += chunk));
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
    child.on("error", reject);
    child.stdin.on("error", () => {});
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      child.stdin.destroy();
      resolve({ code, signal, stdout, stderr });
    });
  });
}
