/**
 * Shared helpers of the check, verify, client and demo tests: run the CLI
 * as a real subprocess, name fixture servers, record fixture cassettes.
 */
import { join } from "node:path";
import { recordScript, toolCall } from "../../src/demo/record_script.ts";
import type { ScriptedCall } from "../../src/demo/record_script.ts";
import type { ServerRequestAnswer } from "../../src/client/connection.ts";
import { CLI, DENO, ROOT, run, tempDir as freshDir } from "../helpers.ts";

export { EVERYTHING, ROOT } from "../helpers.ts";

/** What a CLI run produced. */
export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `deno run -A --no-check cli.ts ...args` and collects its output. */
export async function cli(
  args: string[],
  env: Record<string, string | undefined> = {},
): Promise<CliResult> {
  const result = await run([...CLI, ...args], { env });
  return { code: result.code ?? -1, stdout: result.stdout, stderr: result.stderr };
}

/** The command line of the verify fixture server in `variant`. */
export function fixture(variant: string): string[] {
  return [DENO, "run", "-A", "--no-check", join(ROOT, "tests/fixtures/verify/server.ts"), variant];
}

/** The command line of the broken-schema check fixture. */
export const BROKEN_SCHEMA_SERVER = [
  DENO,
  "run",
  "-A",
  "--no-check",
  join(ROOT, "tests/fixtures/check/broken_schema_server.ts"),
];

/** A fresh temp directory. */
export function tempDir(): string {
  return freshDir("mcp-cassette-verify-test-");
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
