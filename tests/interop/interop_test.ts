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
import { readFileSync } from "node:fs";
import path from "node:path";
import process from "node:process";
import { runSetup, setupState } from "./clients.ts";
import { HERE } from "./golden.ts";
import { cleanUp, rowJobs } from "./run.ts";

const setup = await runSetup();
process.stderr.write(setup.log);

/** Rows allowed not to pass, by test name, each with its reason. */
const allowed = new Map(
  (JSON.parse(readFileSync(path.join(HERE, "allowed_skips.json"), "utf8")) as {
    skips: { test: string; reason: string }[];
  }).skips.map((entry) => [entry.test, entry.reason]),
);

function onPath(tool: string): boolean {
  try {
    execFileSync("sh", ["-c", `command -v ${tool}`], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

for (
  const [language, tool] of [
    ["python", "python3"],
    ["go", "go"],
    ["java", "mvn"],
    ["rust", "cargo"],
  ] as const
) {
  test(`setup installs the ${language} SDK when ${tool} is on PATH`, (t) => {
    if (!onPath(tool)) return t.skip(`${tool} not found on PATH`);
    const state = setupState(language);
    assert.ok(
      "ok" in state,
      `setup.sh skipped ${language}: ${"skip" in state ? state.skip : ""}\n${setup.log}`,
    );
  });
}

for (const job of rowJobs()) {
  test(job.name, async (t) => {
    const row = await job.run();
    if (row.status === "skip") {
      process.stderr.write(`interop: skip: ${job.name}: ${row.detail}\n`);
      return t.skip(row.detail);
    }
    const reason = allowed.get(job.name);
    if (row.status !== "pass" && reason) {
      process.stderr.write(`interop: allowed ${row.status}: ${job.name}: ${row.detail}\n`);
      return t.skip(`allowed (${reason}): ${row.status}: ${row.detail}`);
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
