/**
 * The clients of the interop matrix — one official SDK per language — as
 * command lines against a replay (its stdio command, or its HTTP URL), and
 * what setup.sh left for each language.
 *
 * @module
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { DENO, ROOT, run } from "../helpers.ts";
import { HERE, PYTHON, TS_V2_CLIENT } from "./golden.ts";

/** Where setup.sh leaves its state and the built clients. */
export const BUILD = path.join(HERE, ".build");
/** The Rust programs, built by setup.sh into a target folder CI keeps between steps. */
export const RUST_TARGET = path.join(HERE, "rust", "target");
const RUST_BIN = path.join(RUST_TARGET, "debug");
const TS_V1_CLIENT = [DENO, "run", "-A", "--no-check", path.join(HERE, "ts_client.ts")];

/** A replay to connect to: the command that serves it on stdio, or its URL. */
export type Target = { stdio: string[] } | { url: string };

/** The languages setup.sh installs; TypeScript comes with node_modules. */
export type Language = "python" | "go" | "java" | "rust" | "typescript";

/** What setup.sh left for a language: its SDK version, or why it was skipped. */
export function setupState(language: Language): { ok: string } | { skip: string } {
  if (language === "typescript") return { ok: "node_modules" };
  const okFile = path.join(BUILD, `${language}.ok`);
  const skipFile = path.join(BUILD, `${language}.skip`);
  if (existsSync(okFile)) return { ok: readFileSync(okFile, "utf8").trim() };
  if (existsSync(skipFile)) return { skip: readFileSync(skipFile, "utf8").trim() };
  return { skip: "setup.sh has not run" };
}

/** Runs setup.sh (idempotent); what it printed, and whether it exited 0. */
export async function runSetup(): Promise<{ log: string; ok: boolean }> {
  const result = await run(["bash", path.join(HERE, "setup.sh")], { timeoutMs: 900_000 });
  return { log: result.stderr, ok: result.code === 0 };
}

/** The seconds setup.sh measured for the cold Rust build on this machine, if it ran one. */
export function rustColdBuildSeconds(): number | undefined {
  const file = path.join(RUST_TARGET, "interop-cold-build-seconds");
  return existsSync(file) ? Number(readFileSync(file, "utf8").trim()) : undefined;
}

/** An npm package's version from node_modules. */
export function npmVersion(name: string): string {
  const file = path.join(ROOT, "node_modules", name, "package.json");
  return (JSON.parse(readFileSync(file, "utf8")) as { version: string }).version;
}

/** `--url URL` or `-- <command...>`, the target flags every client but Go's takes. */
function targetArgs(target: Target): string[] {
  return "url" in target ? ["--url", target.url] : ["--", ...target.stdio];
}

/** A client of the matrix: a label until its output names its SDK, and its command line. */
export interface ClientSpec {
  language: Language;
  label: string;
  /** The client's command line for a session file against a target. */
  command: (session: string, target: Target) => string[];
}

/** Python mcp's high-level Client in its default mode: probe server/discover, fall back to initialize. */
export function pythonClient(): ClientSpec {
  const state = setupState("python");
  return {
    language: "python",
    label: `python ${"ok" in state ? state.ok : "mcp"}`,
    command: (session, target) => [
      PYTHON,
      path.join(HERE, "python", "client.py"),
      "--session",
      session,
      "--mode",
      "auto",
      ...targetArgs(target),
    ],
  };
}

/**
 * The Go SDK client opening at 2026-07-28: it probes server/discover first and
 * falls back to initialize when the server answers with a legacy error.
 */
export function goClient(): ClientSpec {
  const state = setupState("go");
  return {
    language: "go",
    label: `go ${"ok" in state ? state.ok : "go-sdk"}`,
    command: (session, target) => [
      path.join(BUILD, "bin", "go-client"),
      "-session",
      session,
      "-protocol",
      "2026-07-28",
      ...("url" in target ? ["-url", target.url] : ["--", ...target.stdio]),
    ],
  };
}

/** The Java SDK client (legacy era only), via the launcher setup.sh writes. */
export function javaClient(): ClientSpec {
  const state = setupState("java");
  return {
    language: "java",
    label: `java ${"ok" in state ? state.ok : "io.modelcontextprotocol.sdk:mcp"}`,
    command: (session, target) => [
      path.join(BUILD, "bin", "java-client"),
      "--session",
      session,
      ...targetArgs(target),
    ],
  };
}

/** The rmcp client in its Auto lifecycle: server/discover, then initialize on a legacy answer. */
export function rustClient(): ClientSpec {
  const state = setupState("rust");
  return {
    language: "rust",
    label: `rust ${"ok" in state ? state.ok : "rmcp"}`,
    command: (session, target) => [
      path.join(RUST_BIN, "rust-client"),
      "--session",
      session,
      "--era",
      "auto",
      ...targetArgs(target),
    ],
  };
}

/** The TypeScript SDK v2 client, pinned to 2026-07-28 (`pin`) or probing (`auto`). */
export function tsV2Client(mode: "pin" | "auto"): ClientSpec {
  return {
    language: "typescript",
    label: `typescript @modelcontextprotocol/client ${npmVersion("@modelcontextprotocol/client")}`,
    command: (session, target) => [
      ...TS_V2_CLIENT,
      "--session",
      session,
      "--mode",
      mode,
      ...targetArgs(target),
    ],
  };
}

/** The TypeScript SDK v1 client (legacy era only). */
export function tsV1Client(): ClientSpec {
  return {
    language: "typescript",
    label: `typescript @modelcontextprotocol/sdk ${npmVersion("@modelcontextprotocol/sdk")}`,
    command: (session, target) => [...TS_V1_CLIENT, "--session", session, ...targetArgs(target)],
  };
}

/** The Rust reference server's command (stdio). */
export const RUST_SERVER = [path.join(RUST_BIN, "rust-server")];
/** The Go reference server's command (stdio). */
export const GO_SERVER = [path.join(BUILD, "bin", "go-server")];
/** The Python reference server's command (stdio). */
export const PYTHON_SERVER = [PYTHON, path.join(HERE, "python", "server.py")];
