/**
 * scripts/compile.ts keeps what a release folder already holds: a failed
 * build leaves the binary that was there, and SHA256SUMS lists exactly the
 * binaries present, with their real hashes. Compiles a one-line script
 * (not the CLI, to stay quick) with Bun, offline, and fails deno compile on
 * purpose by pointing DENORT_BIN at nothing.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import process from "node:process";
import { binaryName, compile, hostPlatform, PLATFORMS } from "../../scripts/compile.ts";
import { run, tempDir } from "../helpers.ts";

function sha256(file: string): string {
  return createHash("sha256").update(readFileSync(file)).digest("hex");
}

/** SHA256SUMS as name → hash. */
function sums(dir: string): Record<string, string> {
  const lines = readFileSync(path.join(dir, "SHA256SUMS"), "utf8").trim().split("\n");
  return Object.fromEntries(lines.map((line) => {
    const [hash, name] = line.split(/\s+/);
    return [name, hash];
  }));
}

test("compile.ts: a failed build keeps the old binary; SHA256SUMS lists only what exists", async () => {
  const dir = tempDir("mcp-cassette-compile-");
  const denort = process.env.DENORT_BIN;
  try {
    const host = hostPlatform();
    const other = PLATFORMS.find((platform) => platform.name !== host.name)!;
    const hostFile = path.join(dir, binaryName(host));
    const otherFile = path.join(dir, binaryName(other));
    writeFileSync(otherFile, "another platform's binary, from an earlier run\n");
    // Stale: names a binary that is not there.
    writeFileSync(path.join(dir, "SHA256SUMS"), `${"0".repeat(64)}  mcp-cassette-gone\n`);
    const both = () => ({
      [binaryName(other)]: sha256(otherFile),
      [binaryName(host)]: sha256(hostFile),
    });

    const hello = path.join(dir, "hello.ts");
    writeFileSync(hello, 'console.log("hello from the first build");\n');
    const [built] = compile({ platforms: [host], outDir: dir, entry: hello });
    assert.equal(built, hostFile);
    const ran = await run([hostFile], { cwd: dir });
    assert.equal(ran.code, 0, ran.stderr);
    assert.equal(ran.stdout.trim(), "hello from the first build");
    assert.deepEqual(sums(dir), both());
    const first = sha256(hostFile);

    // deno compile removes its output file when writing the new one fails
    // (here: no base runtime to write it from, as when dl.deno.land is out of reach).
    process.env.DENORT_BIN = path.join(dir, "no-such-denort");
    assert.throws(
      () => compile({ platforms: [host], outDir: dir, entry: hello, deno: true }),
      new RegExp(`Compiling for ${host.name} failed`),
    );
    assert.equal(sha256(hostFile), first, "the failed deno compile touched the old binary");
    assert.deepEqual(sums(dir), both());

    const broken = path.join(dir, "broken.ts");
    writeFileSync(broken, "export const = ;\n");
    assert.throws(() => compile({ platforms: [host], outDir: dir, entry: broken }), /failed/);
    assert.equal(sha256(hostFile), first, "the failed bun build touched the old binary");
    assert.deepEqual(
      readdirSync(dir).filter((name) => name.startsWith(".")),
      [],
      "a staging folder was left behind",
    );

    rmSync(otherFile);
    rmSync(hostFile);
    assert.throws(() => compile({ platforms: [host], outDir: dir, entry: broken }), /failed/);
    assert.equal(existsSync(path.join(dir, "SHA256SUMS")), false, "SHA256SUMS lists nothing");
  } finally {
    if (denort === undefined) delete process.env.DENORT_BIN;
    else process.env.DENORT_BIN = denort;
    rmSync(dir, { recursive: true, force: true });
  }
});
