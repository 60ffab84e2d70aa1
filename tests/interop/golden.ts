/**
 * The golden cassettes of the interop suite, and how the modern-era ones are
 * recorded: the TypeScript SDK v2 client, pinned to 2026-07-28, runs the
 * shared session (session.json) through `mcp-cassette record` against a
 * server that speaks the stateless era — the SDK v2 server (ts_server.ts) or
 * the Python SDK's MCPServer (python/session_server.py) — over stdio or
 * Streamable HTTP. The files are committed; record_golden.ts rewrites them.
 *
 * @module
 */
import { copyFileSync, existsSync, rmSync } from "node:fs";
import path from "node:path";
import { CLI, DENO, ROOT, run, tempDir } from "../helpers.ts";
import { startBackground, URL_LINE } from "../http/http_helpers.ts";

/** This folder. */
export const HERE = path.join(ROOT, "tests", "interop");
/** The Python of the virtual environment setup.sh creates. */
export const PYTHON = path.join(HERE, ".venv", "bin", "python");
/** The shared session every client runs. */
export const SESSION = path.join(HERE, "session.json");
/** The committed legacy golden cassette, recorded from server-everything. */
export const GOLDEN = path.join(HERE, "golden", "everything.cassette.jsonl");
/** The TypeScript SDK v2 client as a command-line prefix. */
export const TS_V2_CLIENT = [DENO, "run", "-A", "--no-check", path.join(HERE, "ts_v2_client.ts")];

/** A server of the modern golden cassettes. */
export interface ModernServer {
  /** Short name, used in file names. */
  id: "ts-v2" | "python";
  /** What the matrix calls it. */
  label: string;
  /** Its command line for a transport (`--stdio`, or `--http 0`). */
  command: (transport: "stdio" | "http") => string[];
  /** The language whose set-up it needs (run.ts skips its rows when that failed). */
  language: "typescript" | "python";
}

/** The servers the modern golden cassettes come from. */
export const MODERN_SERVERS: ModernServer[] = [
  {
    id: "ts-v2",
    label: "typescript @modelcontextprotocol/server 2.4.0 (ts_server.ts)",
    command: (t) => [
      DENO,
      "run",
      "-A",
      "--no-check",
      path.join(HERE, "ts_server.ts"),
      ...(t === "stdio" ? ["--stdio"] : ["--http", "0"]),
    ],
    language: "typescript",
  },
  {
    id: "python",
    label: "python mcp 2.3.0 MCPServer (python/session_server.py)",
    command: (t) => [
      PYTHON,
      path.join(HERE, "python", "session_server.py"),
      ...(t === "stdio" ? ["--stdio"] : ["--http", "0"]),
    ],
    language: "python",
  },
];

/** Where the modern golden cassette of a server, recorded over a transport, lives. */
export function modernGolden(server: ModernServer, transport: "stdio" | "http"): string {
  return path.join(HERE, "golden", `${server.id}-${transport}.cassette.jsonl`);
}

/** Whether a golden file is there (a checkout without it gets a failing row, not a crash). */
export function goldenExists(file: string): boolean {
  return existsSync(file);
}

/**
 * Records the session from `server` over `transport` into `file` (written
 * whole, or not at all): stdio goes through `record -- <server>`, HTTP
 * through `record --url` in front of the server's own listener.
 */
export async function recordModern(
  server: ModernServer,
  transport: "stdio" | "http",
  file: string,
): Promise<void> {
  const dir = tempDir("mcp-cassette-golden-");
  try {
    await recordInto(server, transport, path.join(dir, "cassette.jsonl"), file);
    copyFileSync(path.join(dir, "cassette.jsonl"), file);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function recordInto(
  server: ModernServer,
  transport: "stdio" | "http",
  scratch: string,
  file: string,
): Promise<void> {
  if (transport === "stdio") {
    const live = await run([
      ...TS_V2_CLIENT,
      "--session",
      SESSION,
      "--",
      ...CLI,
      "record",
      "-o",
      scratch,
      "--",
      // Relative to the checkout (record runs there), so the header names no machine's paths.
      ...server.command("stdio").map((arg) =>
        path.isAbsolute(arg) && arg.startsWith(ROOT) ? path.relative(ROOT, arg) : arg
      ),
    ], { timeoutMs: 120_000 });
    if (live.code !== 0) throw new Error(`recording ${file} failed: ${live.stderr.trim()}`);
  } else {
    const live = await startBackground(server.command("http"), URL_LINE, { timeoutMs: 60_000 });
    try {
      const recorder = await startBackground(
        [...CLI, "record", "-o", scratch, "--url", live.found],
        URL_LINE,
      );
      const session = await run([...TS_V2_CLIENT, "--session", SESSION, "--url", recorder.found], {
        timeoutMs: 120_000,
      });
      const stopped = await recorder.stop();
      if (session.code !== 0 || stopped !== 0) {
        throw new Error(
          `recording ${file} failed: ${session.stderr.trim()} ${recorder.output().trim()}`,
        );
      }
    } finally {
      await live.stop("SIGTERM");
    }
  }
}
