/**
 * The Python door: the wheel installed into a fresh venv (Python 3.12, the
 * pinned pytest, pytest-xdist, fastmcp and mcp) runs the package's own pytest
 * suite (bindings/python/tests/): a FastMCP server and the official Python
 * SDK client over stdio and HTTP, xdist on a cold cache, bad input, and the
 * examples of docs/python.md.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import { run, skipTest, tempDir } from "../helpers.ts";
import { findPython, pytestCounts, PYTHON_PACKAGE, venvWith, wheel } from "./_python.ts";

test("pytest-mcp-cassette: the package's pytest suite from the installed wheel", async (t) => {
  const python = await findPython();
  if (!python) {
    skipTest(t, "no Python 3.12 (pyenv's, python3.12 on PATH, or MCP_CASSETTE_PYTHON)");
    return;
  }
  const work = tempDir("mcp-cassette-py-");
  const venvPython = await venvWith(python, work, await wheel(work));
  const which = await run([venvPython, "-m", "pytest_mcp_cassette"], { cwd: work });
  assert.equal(which.code, 0, which.stderr);
  const pytest = await run([
    venvPython,
    "-m",
    "pytest",
    "-p",
    "no:cacheprovider",
    "-n",
    "2",
    "--basetemp",
    path.join(work, "pytest"),
    path.join(PYTHON_PACKAGE, "tests"),
  ], { cwd: path.join(PYTHON_PACKAGE, "tests"), timeoutMs: 1_200_000, env: { TMPDIR: work } });
  const counts = pytestCounts(pytest.stdout);
  assert.equal(
    pytest.code,
    0,
    `pytest: ${counts} (${which.stdout.trim()})\n${pytest.stdout.slice(-6000)}`,
  );
  t.diagnostic?.(`pytest: ${counts}`);
  console.log(`pytest-mcp-cassette: ${counts}; ${which.stdout.trim()}`);
});
