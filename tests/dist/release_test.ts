/**
 * scripts/release.ts on bad input, and the check of docs/install.md's size
 * figures it runs. The builds and proofs themselves are CI's `release
 * --host` step (.ci/run): a failing proof fails that step.
 */
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { DENO, ROOT, run, tempDir } from "../helpers.ts";
import { checkFigures, INSTALL_MD } from "../../scripts/release/figures.ts";

const work = tempDir("mcp-cassette-release-");
after(() => rmSync(work, { recursive: true, force: true }));
const RELEASE = [DENO, "run", "-A", "--no-check", path.join(ROOT, "scripts", "release.ts")];

test("release --host on a platform we build no binary for: one line, exit 2, nothing built", async () => {
  const out = path.join(work, "unknown");
  const result = await run([...RELEASE, "--host", "--out", out], {
    env: { MCP_CASSETTE_HOST_PLATFORM: "plan9-mips" },
  });
  assert.equal(result.code, 2, result.stdout + result.stderr);
  assert.equal(
    result.stderr,
    "release: --host: no binary for this machine (plan9-mips); we build " +
      "linux-x64, linux-arm64, darwin-x64, darwin-arm64, windows-x64\n",
  );
  assert.equal(result.stdout, "");
  assert.equal(existsSync(out), false);
});

test("release: an unknown option is one line, exit 2", async () => {
  const result = await run([...RELEASE, "--hots"]);
  assert.equal(result.code, 2);
  assert.equal(result.stderr.trim().split("\n").length, 1, result.stderr);
  assert.match(result.stderr, /^release: .*--hots/);
});

test("release: docs/install.md's size figures are compared with what was built", () => {
  const page = path.join(work, "install.md");
  writeFileSync(
    page,
    "The binary is ≈ 110 MB; the npm package is ≈ 470 KB\npacked (≈ 2.0 MB unpacked).\n",
  );
  const measured = {
    packedBytes: 460 * 1024,
    unpackedBytes: 2.05 * 1024 * 1024,
    binaryBytes: 108.7 * 1024 * 1024,
  };
  assert.equal(checkFigures(measured, page).status, "proven");
  const stale = checkFigures({ ...measured, packedBytes: 800 * 1024 }, page);
  assert.equal(stale.status, "failed");
  assert.equal(stale.detail, "says ≈ 470 KB packed, measured 800 KB packed");
  writeFileSync(page, "no figures here\n");
  assert.match(
    checkFigures(measured, page).detail,
    /no "≈ N KB packed" figure \(measured 460 KB packed\)/,
  );
  // The page itself carries the three figures.
  const text = readFileSync(INSTALL_MD, "utf8");
  assert.match(text, /≈ [\d.]+ KB\s+packed/);
  assert.match(text, /≈ [\d.]+ MB\s+unpacked/);
  assert.match(text, /binary is\s+≈ [\d.]+ MB/);
});
