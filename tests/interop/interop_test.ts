/**
 * The interop suite: official SDK clients in other languages against
 * `mcp-cassette replay`, and other SDKs' reference servers recorded and
 * replayed to the TypeScript SDK client. setup.sh installs what is needed
 * (idempotent); a language whose toolchain is missing is skipped with the
 * reason, except that Python, Go and Java must be installable wherever their
 * toolchains (python3, go, mvn) are on PATH. See docs/interop.md for the matrix.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import process from "node:process";
import { rowJobs, runSetup, setupState } from "./run.ts";
import { skipTest } from "../helpers.ts";

const setupLog = await runSetup();
process.stderr.write(setupLog);

function onPath(tool: string): boolean {
  try {
    execFileSync("sh", ["-c", `command -v ${tool}`], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

for (
  const [language, tool] of [["python", "python3"], ["go", "go"], ["java", "mvn"]] as const
) {
  test(`setup installs the ${language} SDK when ${tool} is on PATH`, (t) => {
    if (!onPath(tool)) return skipTest(t, `${tool} not found on PATH`);
    const state = setupState(language);
    assert.ok(
      "ok" in state,
      `setup.sh skipped ${language}: ${"skip" in state ? state.skip : ""}\n${setupLog}`,
    );
  });
}

for (const job of rowJobs()) {
  test(job.name, async (t) => {
    const row = await job.run();
    if (row.status === "skip" || row.status === "pending") {
      process.stderr.write(`interop: ${row.status}: ${job.name}: ${row.detail}\n`);
      return skipTest(t, `${row.status}: ${row.detail}`);
    }
    assert.equal(row.status, "pass", row.detail);
    assert.match(row.detail, /recorded values matched/);
  });
}
