/**
 * The Node version a checkout needs is one number, true everywhere: the
 * README states what package.json's `engines` says, and `npm ci` on this
 * Node (CI runs Node 20) installs the locked tree without an engine
 * complaint (content-type 3, under the conformance suite's @octokit/request,
 * wants Node 22: package.json overrides it to 2.1.0, the same API).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { copyFileSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import process from "node:process";
import { ROOT, tempDir } from "../helpers.ts";

test("package.json's engines, the README and the locked tree agree on the Node version", () => {
  const manifest = JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8"));
  const wanted = String(manifest.engines?.node ?? "");
  const minimum = wanted.match(/^>=(\d+\.\d+)$/)?.[1];
  assert.ok(minimum, `package.json engines.node is "${wanted}", not ">=MAJOR.MINOR"`);
  const readme = readFileSync(path.join(ROOT, "README.md"), "utf8");
  assert.match(readme, new RegExp(`Node\\.js ≥ ${minimum.replace(".", "\\.")}\\b`));

  const work = tempDir("mcp-cassette-engines-");
  try {
    copyFileSync(path.join(ROOT, "package.json"), path.join(work, "package.json"));
    copyFileSync(path.join(ROOT, "package-lock.json"), path.join(work, "package-lock.json"));
    // A dry run reads the lock and checks every package's engines, installing nothing.
    const result = spawnSync(
      "npm",
      ["ci", "--dry-run", "--engine-strict", "--ignore-scripts", "--no-audit", "--no-fund"],
      { cwd: work, encoding: "utf8", shell: process.platform === "win32" },
    );
    const output = `${result.stdout}${result.stderr}`;
    assert.doesNotMatch(output, /EBADENGINE|notsup/, output.slice(-2000));
    assert.equal(result.status, 0, output.slice(-2000));
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
});
