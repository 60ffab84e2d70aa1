/**
 * The interop suite: official SDK clients in other languages against
 * `mcp-cassette replay` in both protocol eras, and other SDKs' reference
 * servers recorded and replayed to the TypeScript SDK client. setup.sh
 * installs what is needed (idempotent). A language whose toolchain is missing
 * has its rows skipped with the reason; where the toolchain is on PATH
 * (python3, go, mvn, cargo) its set-up must have succeeded. A row that fails
 * fails its test, unless allowed_skips.json lists it with a reason: then it
 * is reported as a skip that says what went wrong. See docs/interop.md.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import process from "node:process";
import { runSetup, setupState } from "./clients.ts";
import { allowedSkips, cleanUp, rowJobs } from "./run.ts";
import { skipTest } from "../helpers.ts";

const setup = await runSetup();
process.stderr.write(setup.log);

const allowed = allowedSkips();

function onPath(tool: string): boolean {
  try {
    execFileSync("sh", ["-c", `command -v ${tool}`], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

// Skips are decided when tests are defined wherever that is known (Deno
// counts a runtime t.skip() as passed), and each prints one line for CI:
// "interop: skip: <test name>: <reason>" or "interop: allowed <status>: ...".
for (
  const [language, tool] of [
    ["python", "python3"],
    ["go", "go"],
    ["java", "mvn"],
    ["rust", "cargo"],
  ] as const
) {
  const name = `setup installs the ${language} SDK when ${tool} is on PATH`;
  const absent = onPath(tool) ? undefined : `${tool} not found on PATH`;
  if (absent) process.stderr.write(`interop: skip: ${name}: ${absent}\n`);
  test(name, { skip: absent ?? false }, () => {
    const state = setupState(language);
    assert.ok(
      "ok" in state,
      `setup.sh skipped ${language}: ${"skip" in state ? state.skip : ""}\n${setup.log}`,
    );
  });
}

for (const job of rowJobs()) {
  if (job.skip) process.stderr.write(`interop: skip: ${job.name}: ${job.skip}\n`);
  test(job.name, { skip: job.skip ?? false }, async (t) => {
    const row = await job.run();
    const reason = allowed.get(job.name);
    if (row.status !== "pass" && reason) {
      process.stderr.write(`interop: allowed ${row.status}: ${job.name}: ${row.detail}\n`);
      return skipTest(t, `allowed (${reason}): ${row.status}: ${row.detail}`);
    }
    assert.equal(row.status, "pass", row.detail);
    if (reason) {
      process.stderr.write(`interop: ${job.name} passes now: remove it from allowed_skips.json\n`);
    }
  });
}

test("the reference recordings are removed", () => {
  cleanUp();
});
