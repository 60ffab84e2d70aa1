/**
 * Shared by the Python door's tests: Python 3.12, the wheel (built once per
 * test file unless CI hands one over), and a fresh venv with the pinned
 * test dependencies of bindings/python/pyproject.toml.
 *
 * `MCP_CASSETTE_WHEEL` names a wheel already built (the release step's);
 * `MCP_CASSETTE_BINARY` a host binary to put in the wheel instead of
 * compiling one; `MCP_CASSETTE_PYTHON` the Python to use.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import process from "node:process";
import { parse as parseToml } from "smol-toml";
import { DENO, ROOT, run } from "../helpers.ts";

/** The Python package's folder. */
export const PYTHON_PACKAGE = path.join(ROOT, "bindings", "python");

/** A Python 3.12: MCP_CASSETTE_PYTHON, pyenv's, or python3.12 on PATH; undefined when none. */
export async function findPython(): Promise<string | undefined> {
  const given = process.env.MCP_CASSETTE_PYTHON;
  if (given) return given;
  const pyenv = process.env.PYENV_ROOT ?? path.join(os.homedir(), ".pyenv");
  const versions = path.join(pyenv, "versions");
  const found = existsSync(versions)
    ? readdirSync(versions).filter((name) => /^3\.12\.\d+$/.test(name)).sort().pop()
    : undefined;
  if (found) return path.join(versions, found, "bin", "python3");
  const onPath = await run(["python3.12", "--version"]).catch(() => undefined);
  return onPath?.code === 0 ? "python3.12" : undefined;
}

/** The wheel: MCP_CASSETTE_WHEEL, else built into `dir` (with MCP_CASSETTE_BINARY when set). */
export async function wheel(dir: string): Promise<string> {
  const given = process.env.MCP_CASSETTE_WHEEL;
  if (given) return path.resolve(ROOT, given);
  const binary = process.env.MCP_CASSETTE_BINARY;
  const built = await run([
    DENO,
    "run",
    "-A",
    path.join(ROOT, "scripts", "build_wheel.ts"),
    "--out",
    dir,
    ...(binary ? ["--binary", path.resolve(ROOT, binary)] : []),
  ], { timeoutMs: 600_000 });
  if (built.code !== 0) throw new Error(`build_wheel failed:\n${built.stderr}`);
  return built.stdout.trim().split("\n").pop()!;
}

/** The pinned test dependencies, as pip requirements. */
export function testRequirements(): string[] {
  const pyproject = parseToml(readFileSync(path.join(PYTHON_PACKAGE, "pyproject.toml"), "utf8"));
  const pins = (pyproject.tool as Record<string, Record<string, Record<string, string>>>)[
    "mcp-cassette"
  ]["test-dependencies"];
  return Object.entries(pins).map(([name, version]) => `${name}==${version}`);
}

/** A fresh venv in `dir` with the wheel and the pinned test dependencies; its python. */
export async function venvWith(python: string, dir: string, wheelFile: string): Promise<string> {
  const venv = path.join(dir, "venv");
  const made = await run([python, "-m", "venv", venv]);
  if (made.code !== 0) throw new Error(`${python} -m venv failed: ${made.stderr}`);
  const pip = [path.join(venv, "bin", "python"), "-m", "pip", "install", "--quiet"];
  const installed = await run(
    [...pip, "--disable-pip-version-check", "--no-cache-dir", wheelFile, ...testRequirements()],
    { timeoutMs: 600_000 },
  );
  if (installed.code !== 0) throw new Error(`pip install failed:\n${installed.stderr}`);
  return path.join(venv, "bin", "python");
}

/** pytest's closing counts, e.g. "12 passed, 1 failed". */
export function pytestCounts(output: string): string {
  const lines = output.trim().split("\n").filter((line) => /\d+ (passed|failed|error)/.test(line));
  return lines.pop()?.replace(/=+/g, "").trim() ?? "no pytest summary";
}
