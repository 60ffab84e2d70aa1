/**
 * The exactness tests' shared parts: a cassette recorded from our own
 * SDK-free Python server (tests/fixtures/echo_server.py) through real pipes,
 * and the raw lines a client sends.
 */
import { spawn } from "node:child_process";
import path from "node:path";
import process from "node:process";
import assert from "node:assert/strict";
import { CLI, ROOT, run } from "../helpers.ts";
import type { RunResult } from "../helpers.ts";

/** The echo server's command line. */
export const ECHO_SERVER = ["python3", path.join(ROOT, "tests/fixtures/echo_server.py")];

/** The opening a raw client sends, with `id` as the initialize's id text. */
export function opening(id = "1", version = "2025-06-18"): string[] {
  return [
    `{"jsonrpc":"2.0","id":${id},"method":"initialize","params":{"protocolVersion":"${version}","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`,
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

/**
 * A raw client that waits for each request's answer before sending the next
 * line (a server that handles requests concurrently would otherwise answer
 * a read before the write sent ahead of it). Resolves with the process's
 * output and exit code once its input is closed.
 */
export function converse(
  command: readonly string[],
  lines: readonly string[],
  env: Record<string, string | undefined> = {},
): Promise<RunResult> {
  const merged: Record<string, string | undefined> = { ...process.env, NO_COLOR: "1", ...env };
  for (const key of Object.keys(merged)) if (merged[key] === undefined) delete merged[key];
  return new Promise((resolve, reject) => {
    const child = spawn(command[0], command.slice(1), {
      cwd: ROOT,
      env: merged as Record<string, string>,
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    let waiting: { id: string; done: () => void } | undefined;
    child.stderr.setEncoding("utf8").on("data", (chunk) => (stderr += chunk));
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk;
      if (waiting && answered(stdout, waiting.id)) waiting.done();
    });
    const timer = setTimeout(() => child.kill("SIGKILL"), 60_000);
    child.on("error", reject);
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
    (async () => {
      for (const line of lines) {
        const request = JSON.parse(line) as { id?: unknown; method?: string };
        const answer = request.id !== undefined && request.method !== undefined
          ? new Promise<void>((done) => (waiting = { id: JSON.stringify(request.id), done }))
          : undefined;
        child.stdin.write(line + "\n");
        if (answer) await answer;
      }
      child.stdin.end();
    })();
  });
}

function answered(stdout: string, id: string): boolean {
  return stdout.split("\n").some((line) => {
    try {
      const message = JSON.parse(line) as { id?: unknown; method?: string };
      return message.method === undefined && JSON.stringify(message.id) === id;
    } catch {
      return false;
    }
  });
}
