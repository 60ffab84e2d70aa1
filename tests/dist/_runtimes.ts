/**
 * Shared by the distribution tests: the three runtimes' executables, the
 * SDK client session, and building the npm package and the host binary.
 *
 * Executables are resolved to real binaries (not node_modules/.bin shims),
 * so the tests also start on Windows, where those shims are .cmd files.
 */
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import path from "node:path";
import process from "node:process";
import { EVERYTHING, ROOT, run } from "../helpers.ts";
import type { RunResult } from "../helpers.ts";

const EXE = process.platform === "win32" ? ".exe" : "";

function firstExisting(candidates: string[], fallback: string): string {
  return candidates.find((candidate) => existsSync(candidate)) ?? fallback;
}

/** Deno: the binary the npm `deno` package installed, else `deno` on PATH. */
export const DENO_BIN = firstExisting(
  [path.join(ROOT, "node_modules", "deno", `deno${EXE}`)],
  "deno",
);
/** Bun: the binary the npm `bun` package installed, else `bun` on PATH. */
export const BUN_BIN = firstExisting(
  [path.join(ROOT, "node_modules", "bun", "bin", "bun.exe")],
  "bun",
);
/** Node: this process when it is Node, else `node` on PATH. */
export const NODE_BIN = process.versions.node && !("Deno" in globalThis) && !("Bun" in globalThis)
  ? process.execPath
  : "node";

/** The official SDK (v1) client's scripted session, run by Deno. */
export const SDK_CLIENT = [
  DENO_BIN,
  "run",
  "-A",
  "--no-check",
  path.join(ROOT, "tests/fixtures/sdk_session.ts"),
];

/** The reference server over stdio. */
export const SERVER = EVERYTHING;

/** What the SDK client printed: every result it received. */
export interface SessionResults {
  results: Record<string, unknown>;
  asked: unknown[];
  progress: unknown[];
}

function parse(result: RunResult, what: string): SessionResults {
  assert.equal(result.code, 0, `${what} exited ${result.code}\n${result.stderr}`);
  return JSON.parse(result.stdout) as SessionResults;
}

/** Drives `cli record -o cassette -- server` with the SDK client. */
export async function recordWith(
  cli: readonly string[],
  cassette: string,
): Promise<SessionResults> {
  const result = await run([
    ...SDK_CLIENT,
    "--",
    ...cli,
    "record",
    "-o",
    cassette,
    "--",
    ...SERVER,
  ]);
  const session = parse(result, `record via ${cli.join(" ")}`);
  // The live server really answered: guards against comparing two empty sessions.
  const sum = session.results.sum as { content?: { text?: string }[] };
  assert.equal(sum.content?.[0]?.text, "The sum of 2 and 40 is 42.");
  return session;
}

/** Drives `cli replay cassette` with the SDK client. */
export async function replayWith(
  cli: readonly string[],
  cassette: string,
): Promise<SessionResults> {
  const result = await run([...SDK_CLIENT, "--", ...cli, "replay", cassette]);
  return parse(result, `replay via ${cli.join(" ")}`);
}

/** Runs a build script with Deno; fails the test with its output if it fails. */
export async function denoScript(
  script: string,
  args: string[],
  timeoutMs = 120_000,
): Promise<RunResult> {
  const result = await run([
    DENO_BIN,
    "run",
    "-A",
    "--no-check",
    path.join(ROOT, "scripts", script),
    ...args,
  ], {
    timeoutMs,
  });
  assert.equal(
    result.code,
    0,
    `${script} ${args.join(" ")} failed\n${result.stdout}${result.stderr}`,
  );
  return result;
}

/**
 * The environment overrides in effect, for a test's name: ` [NAME=value]`
 * for each one set, so a run that used a prebuilt binary says so.
 */
export function overridesInName(...names: string[]): string {
  return names.filter((name) => process.env[name])
    .map((name) => ` [${name}=${process.env[name]}]`).join("");
}

/**
 * The host's standalone binary: `MCP_CASSETTE_BINARY` when CI built it
 * already, else compiled now (Bun, offline) into `dir`.
 */
export async function hostBinary(dir: string): Promise<string> {
  const given = process.env.MCP_CASSETTE_BINARY;
  if (given) return path.resolve(ROOT, given);
  const output = await denoScript("compile.ts", ["--host", "--outdir", dir]);
  const file = output.stdout.trim().split("\n")[0].split(/\s+/)[0];
  return path.resolve(ROOT, file);
}
