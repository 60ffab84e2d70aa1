/**
 * The exactness tests' shared parts: a cassette recorded from our own
 * SDK-free Python server (tests/fixtures/echo_server.py) through real pipes,
 * and the raw lines a client sends.
 */
import path from "node:path";
import assert from "node:assert/strict";
import { CLI, ROOT, run } from "../helpers.ts";
import type { RunResult } from "../helpers.ts";

/** The echo server's command line. */
export const ECHO_SERVER = ["python3", path.join(ROOT, "tests/fixtures/echo_server.py")];

/** The opening a raw client sends, with `id` as the initialize's id text. */
export function opening(id = "1"): string[] {
  return [
    `{"jsonrpc":"2.0","id":${id},"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`,
    `{"jsonrpc":"2.0","method":"notifications/initialized"}`,
  ];
}

/** A tools/call line with `id` (as text) and `args`. */
export function call(id: string, name: string, args: Record<string, unknown>): string {
  return `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"${name}","arguments":${
    JSON.stringify(args)
  }}}`;
}

/** Records `lines` from the echo server into `cassette` through the CLI (the server's answers come back). */
export async function recordEcho(
  cassette: string,
  lines: readonly string[],
  env: Record<string, string | undefined> = {},
  extra: readonly string[] = [],
): Promise<RunResult> {
  const result = await run([...CLI, "record", "-o", cassette, ...extra, "--", ...ECHO_SERVER], {
    input: lines.join("\n") + "\n",
    env,
  });
  assert.equal(result.code, 0, result.stderr);
  return result;
}

/** Replays `cassette` over stdio with `lines` as the client's input. */
export function replayLines(
  cassette: string,
  lines: readonly string[],
  env: Record<string, string | undefined> = {},
  extra: readonly string[] = [],
): Promise<RunResult> {
  return run([...CLI, "replay", cassette, ...extra], { input: lines.join("\n") + "\n", env });
}

/** The answer (a parsed line) to `id` in `stdout`, found by its id's text. */
export function answerLine(stdout: string, idText: string): string | undefined {
  return stdout.split("\n").find((line) =>
    line.includes(`"id": ${idText},`) || line.includes(`"id":${idText},`)
  );
}
