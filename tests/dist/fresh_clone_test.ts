/**
 * A newcomer's first hour: the foreign-format tests pass in a fresh clone
 * with nothing beside it (no ../shared), and leave nothing in the temporary
 * folder they were given. The clone borrows this checkout's node_modules
 * through a link: installing them again would test npm, not the repository.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, rmSync, symlinkSync } from "node:fs";
import path from "node:path";
import { DENO, ROOT, run, tempDir } from "../helpers.ts";

function git(args: string[], cwd = ROOT): string {
  const result = spawnSync("git", args, { cwd, encoding: "utf8" });
  assert.equal(result.status, 0, `git ${args.join(" ")}: ${result.stderr}`);
  return result.stdout.trim();
}

const inCheckout = spawnSync("git", ["rev-parse", "HEAD"], { cwd: ROOT }).status === 0;

test("tests/import passes in a fresh clone with nothing beside it, and leaves its TMPDIR empty", {
  skip: inCheckout ? false : "needs git and a git checkout (not the npm package)",
  timeout: 600_000,
}, async () => {
  // Two folders of their own: the clone has nothing beside it, and the
  // tests' TMPDIR holds nothing else.
  const outer = tempDir("mcp-cassette-clone-");
  const scratch = tempDir("mcp-cassette-clone-tmp-");
  try {
    const clone = path.join(outer, "mcp-cassette");
    git(["clone", "--quiet", "--no-hardlinks", ROOT, clone], outer);
    git(["checkout", "--quiet", "--detach", git(["rev-parse", "HEAD"])], clone);
    assert.deepEqual(readdirSync(outer), ["mcp-cassette"]);
    assert.ok(!existsSync(path.join(clone, "..", "shared")));
    symlinkSync(path.join(ROOT, "node_modules"), path.join(clone, "node_modules"), "dir");
    const tmp = path.join(scratch, "tmp");
    mkdirSync(tmp);
    const result = await run([DENO, "test", "-A", "--no-check", "tests/import/"], {
      cwd: clone,
      // CI's own regeneration test stays in CI's checkout: here it would install the tools again.
      env: { TMPDIR: tmp, TMP: tmp, TEMP: tmp, CI: undefined, NO_COLOR: "1" },
      timeoutMs: 600_000,
    });
    const summary = result.stdout.split("\n").find((line) => /\d+ passed/.test(line)) ?? "";
    assert.equal(
      result.code,
      0,
      `${summary}\n${result.stdout.slice(-6000)}\n${result.stderr.slice(-2000)}`,
    );
    assert.match(summary, /ok \| [1-9]\d* passed \| 0 failed/);
    assert.deepEqual(readdirSync(tmp), [], "the tests removed every temporary folder they made");
  } finally {
    rmSync(outer, { recursive: true, force: true });
    rmSync(scratch, { recursive: true, force: true });
  }
});
