/**
 * The Python wheel (`pytest-mcp-cassette`): built by scripts/build_wheel.ts
 * around this machine's binary, then proven as a user gets it: installed
 * into a fresh venv with pytest, where a test that uses the plugin's
 * `mcp_cassette` fixture starts the command the fixture gives and replays a
 * cassette through it. Without scripts/build_wheel.ts in the checkout the
 * step says so in one line and the rest of the release goes on.
 *
 * @module
 */
import * as fs from "node:fs";
import path from "node:path";
import type { Platform } from "../compile.ts";
import {
  cleanFolder,
  exec,
  failed,
  mustRun,
  type Outcome,
  ROOT,
  SUM,
  SUM_CASSETTE,
} from "./common.ts";

const BUILD_WHEEL = path.join(ROOT, "scripts", "build_wheel.ts");
const DENO = path.join(ROOT, "node_modules", "deno", "deno");

/**
 * The pytest a user writes: the fixture turns the server's command into the
 * replay of the committed cassette (the wheel's own binary), the test drives
 * it over pipes, and the fixture's teardown checks the session had no miss.
 */
const USER_TEST = `import json
import subprocess

import pytest


@pytest.mark.mcp_cassette(cassette="sum.cassette.jsonl")
def test_fixture_replays(mcp_cassette):
    command = mcp_cassette.server_command(["node", "server-everything.js"])
    lines = [
        {"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
            "protocolVersion": "2025-11-25", "capabilities": {},
            "clientInfo": {"name": "example", "version": "1.0.0"}}},
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "id": 1, "method": "tools/call",
         "params": {"name": "get-sum", "arguments": {"a": 2, "b": 40}}},
    ]
    stdin = "".join(json.dumps(line) + "\\n" for line in lines)
    done = subprocess.run(command, input=stdin, capture_output=True, text=True, timeout=60)
    answers = [json.loads(line) for line in done.stdout.splitlines() if line.strip()]
    texts = [a["result"]["content"][0]["text"] for a in answers if a.get("id") == 1]
    assert texts == [${JSON.stringify(SUM)}], done.stdout + done.stderr
`;

/** Installs the wheel into a fresh venv and runs the user's pytest there. */
export function proveWheel(wheel: string): string {
  const folder = cleanFolder("wheel");
  try {
    const python = exec(["python3", "--version"]).status === 0 ? "python3" : "python";
    mustRun([python, "-m", "venv", path.join(folder, "venv")]);
    const bin = path.join(folder, "venv", process_bin());
    mustRun([
      path.join(bin, "pip"),
      "install",
      "--quiet",
      "--disable-pip-version-check",
      wheel,
      "pytest",
    ]);
    fs.mkdirSync(path.join(folder, "tests", "cassettes"), { recursive: true });
    fs.copyFileSync(SUM_CASSETTE, path.join(folder, "tests", "cassettes", "sum.cassette.jsonl"));
    fs.writeFileSync(path.join(folder, "test_user.py"), USER_TEST);
    mustRun([
      path.join(bin, "python"),
      "-m",
      "pytest",
      "-q",
      "-p",
      "no:cacheprovider",
      "test_user.py",
    ], {
      cwd: folder,
    });
    return "installed into a fresh venv; a pytest using the mcp_cassette fixture replayed a cassette";
  } finally {
    fs.rmSync(folder, { recursive: true, force: true });
  }
}

/** A venv's folder of executables. */
function process_bin(): string {
  return path.sep === "\\" ? "Scripts" : "bin";
}

/** Builds the wheel around `binary` and proves it. */
export function releaseWheel(
  outDir: string,
  binary: string | undefined,
  platform: Platform,
): Outcome {
  const artifact = "python wheel";
  if (!fs.existsSync(BUILD_WHEEL)) {
    return {
      artifact,
      files: [],
      status: "skipped",
      detail: "unavailable: this checkout has no scripts/build_wheel.ts",
    };
  }
  if (!binary) {
    return {
      artifact,
      files: [],
      status: "skipped",
      detail: `not built: no ${platform.name} binary to put in it`,
    };
  }
  let wheel: string;
  try {
    const ran = mustRun([
      DENO,
      "run",
      "-A",
      BUILD_WHEEL,
      "--out",
      outDir,
      "--binary",
      binary,
      "--platform",
      platform.name,
    ]);
    wheel = path.resolve(ran.stdout.trim().split("\n").pop() ?? "");
    if (!wheel.endsWith(".whl") || !fs.existsSync(wheel)) {
      throw new Error(`build_wheel.ts printed no wheel (${wheel})`);
    }
  } catch (error) {
    return failed(artifact, [], error);
  }
  try {
    return { artifact, files: [wheel], status: "proven", detail: proveWheel(wheel) };
  } catch (error) {
    return failed(artifact, [wheel], error);
  }
}
