/**
 * Shared helpers of the check, verify, client and demo tests: run the CLI
 * as a real subprocess, name fixture servers, record fixture cassettes.
 */
import { spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { recordScript, toolCall } from "../../src/demo/record_script.ts";
import type { ScriptedCall } from "../../src/demo/record_script.ts";
import type { ServerRequestAnswer } from "../../src/client/connection.ts";

/** The repository root. */
export const ROOT = fileURLToPath(new URL("../../", import.meta.url));

/** The reference server's command line. */
export const EVERYTHING = [
  "node",
  join(ROOT, "node_modules/@modelcontextprotocol/server-everything/dist/index.js"),
  "stdio",
];

/** What a CLI run produced. */
export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `deno run -A --no-check cli.ts ...args` and collects its output. */
export function cli(
  args: string[],
  env: Record<string, string | undefined> = {},
): Promise<CliResult> {
  const childEnv: Record<string, string | undefined> = { ...process.env, NO_COLOR: "1", ...env };
  for (const key of Object.keys(childEnv)) if (childEnv[key] === undefined) delete childEnv[key];
  return new Promise((resolve, reject) => {
    const child = spawn("deno", ["run", "-A", "--no-check", join(ROOT, "cli.ts"), ...args], {
      cwd: ROOT,
      env: childEnv as Record<string, string>,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stderr += chunk));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

/** The command line of the verify fixture server in `variant`. */
export function fixture(variant: string): string[] {
  return [
    "deno",
    "run",
    "-A",
    "--no-check",
    join(ROOT, "tests/fixtures/verify/server.ts"),
    variant,
  ];
}

/** The command line of the broken-schema check fixture. */
export const BROKEN_SCHEMA_SERVER = [
  "deno",
  "run",
  "-A",
  "--no-check",
  join(ROOT, "tests/fixtures/check/broken_schema_server.ts"),
];

/** A fresh temp directory. */
export function tempDir(): string {
  return mkdtempSync(join(tmpdir(), "mcp-cassette-verify-test-"));
}

/** The calls recorded against the fixture: stats is exchange #3, echo #4. */
export const FIXTURE_SCRIPT: ScriptedCall[] = [
  { method: "tools/list", params: {} },
  toolCall("stats"),
  toolCall("echo", { text: "hi" }),
];

/** Records `calls` against the base fixture into a new cassette; returns its path. */
export async function recordFixture(
  calls: ScriptedCall[] = FIXTURE_SCRIPT,
  dir = tempDir(),
): Promise<string> {
  const path = join(dir, "fixture.cassette.jsonl");
  await recordScript(fixture("base"), calls, path, {
    onServerRequest: (request): ServerRequestAnswer =>
      request.method === "sampling/createMessage"
        ? { result: { role: "assistant", content: { type: "text", text: "42" }, model: "fixture" } }
        : { result: {} },
  });
  return path;
}

/** Runs `verify --json` and parses the report. */
export async function verifyJson(cassette: string, server: string[], extra: string[] = []) {
  const result = await cli(["verify", cassette, "--json", ...extra, "--", ...server]);
  if (result.stdout.trim() === "") {
    throw new Error(`verify printed nothing (exit ${result.code}): ${result.stderr}`);
  }
  return { ...result, report: JSON.parse(result.stdout) };
}
