/**
 * The npm package as a user gets it: build, `npm pack`, install the tarball
 * into an empty folder, then the official SDK client records the reference
 * server through the installed `mcp-cassette` bin under Node and replays it,
 * with identical results. `npm install` fetches jsonc-parser and smol-toml
 * from the npm registry.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import process from "node:process";
import { ROOT, run, tempDir } from "../helpers.ts";
import { denoScript, NODE_BIN, recordWith, replayWith } from "./_runtimes.ts";

interface PackedFile {
  path: string;
  mode: number;
}

function npm(args: string[], cwd: string) {
  // npm is npm.cmd on Windows, which only a shell starts.
  const result = spawnSync("npm", args, {
    cwd,
    encoding: "utf8",
    shell: process.platform === "win32",
  });
  assert.equal(result.status, 0, `npm ${args.join(" ")} failed\n${result.stdout}${result.stderr}`);
  return result.stdout;
}

test("npm package: packed, installed into an empty folder, the bin records and replays under Node", async (t) => {
  const work = tempDir("mcp-cassette-npm-");
  const outDir = path.join(work, "build");
  await denoScript("build_npm.ts", ["--out", outDir]);

  const manifest = JSON.parse(readFileSync(path.join(outDir, "package.json"), "utf8"));
  assert.equal(manifest.name, "mcp-cassette");
  assert.equal(
    manifest.version,
    JSON.parse(readFileSync(path.join(ROOT, "deno.json"), "utf8")).version,
  );
  assert.equal(manifest.type, "module");
  assert.deepEqual(manifest.bin, { "mcp-cassette": "cli.js" });
  assert.equal(manifest.engines.node, ">=20");
  // Runtime dependencies: exactly what src imports from npm, pinned to exact versions.
  assert.deepEqual(Object.keys(manifest.dependencies).sort(), ["jsonc-parser", "smol-toml"]);
  for (const version of Object.values(manifest.dependencies)) {
    assert.match(String(version), /^\d+\.\d+\.\d+$/);
  }
  assert.equal(manifest.devDependencies, undefined);
  assert.equal(manifest.scripts, undefined);
  assert.match(readFileSync(path.join(outDir, "cli.js"), "utf8"), /^#!\/usr\/bin\/env node\n/);
  // Relative imports were rewritten to .js: no .ts specifier survives.
  assert.doesNotMatch(
    readFileSync(path.join(outDir, "src/cli/main.js"), "utf8"),
    /from "\.[^"]*\.ts"/,
  );
  for (const [subpath, source] of [[".", "mod.ts"], ["./testing", "src/testing/mod.ts"]]) {
    const exported = manifest.exports[subpath];
    if (!existsSync(path.join(ROOT, source))) continue;
    assert.ok(exported, `${source} exists, so exports["${subpath}"] must too`);
    assert.ok(existsSync(path.join(outDir, exported.default)), `${exported.default} is missing`);
    assert.ok(existsSync(path.join(outDir, exported.types)), `${exported.types} is missing`);
  }

  const packed = JSON.parse(npm(["pack", "--json", "--pack-destination", work], outDir))[0] as {
    filename: string;
    files: PackedFile[];
  };
  const files = packed.files.map((file) => file.path);
  for (
    const wanted of [
      "package.json",
      "README.md",
      "LICENSE",
      "cli.js",
      "cli.d.ts",
      "src/cli/main.js",
    ]
  ) {
    assert.ok(files.includes(wanted), `${wanted} is not in the tarball`);
  }
  const devOnly = files.filter((file) =>
    /(^|\/)(tests?|scripts|node_modules)\/|_test\.|\.ts$/.test(file) && !file.endsWith(".d.ts")
  );
  assert.deepEqual(devOnly, [], "dev-only files in the tarball");
  if (process.platform !== "win32") {
    // Windows has no executable bit to pack; npm's shims make the bin runnable there.
    const cliMode = packed.files.find((file) => file.path === "cli.js")!.mode;
    assert.equal(cliMode & 0o111, 0o111, "cli.js is not executable in the tarball");
  }

  const install = path.join(work, "install");
  mkdirSync(install);
  npm(["install", "--no-audit", "--no-fund", path.join(work, packed.filename)], install);
  const pkgDir = path.join(install, "node_modules", "mcp-cassette");
  // On Windows .bin holds .cmd shims; Node runs the bin's target itself.
  const bin = process.platform === "win32"
    ? path.join(pkgDir, "cli.js")
    : path.join(install, "node_modules", ".bin", "mcp-cassette");
  if (process.platform !== "win32") {
    assert.ok(statSync(bin).mode & 0o111, "the installed bin is not executable");
  }
  const installedDeps = ["jsonc-parser", "smol-toml"].filter((name) =>
    existsSync(path.join(install, "node_modules", name))
  );
  assert.deepEqual(installedDeps, ["jsonc-parser", "smol-toml"]);

  const version = await run([NODE_BIN, bin, "--version"], { cwd: install });
  assert.equal(version.code, 0, version.stderr);
  assert.equal(version.stdout.trim(), `mcp-cassette ${manifest.version}`);

  // What a user types: npx finds the installed bin (no registry lookup with --no).
  const npx = spawnSync("npx", ["--no", "--", "mcp-cassette", "--version"], {
    cwd: install,
    encoding: "utf8",
    shell: process.platform === "win32",
  });
  assert.equal(npx.status, 0, npx.stderr);
  assert.equal(npx.stdout.trim(), `mcp-cassette ${manifest.version}`);

  const cli = [NODE_BIN, bin];
  const cassette = path.join(work, "npm.cassette.jsonl");
  const recorded = await recordWith(cli, cassette);
  const replayed = await replayWith(cli, cassette);
  assert.deepEqual(replayed, recorded);

  await t.test("the library entry points import under Node", async (t) => {
    const subpaths = Object.keys(manifest.exports).filter((key) => key !== "./package.json");
    if (subpaths.length === 0) return t.skip("no mod.ts or src/testing/mod.ts yet");
    const script = path.join(install, "imports.mjs");
    writeFileSync(
      script,
      subpaths.map((subpath, i) =>
        `import * as m${i} from "${path.posix.join("mcp-cassette", subpath)}";`
      ).join("\n") +
        `\nconsole.log(JSON.stringify([${
          subpaths.map((_, i) => `Object.keys(m${i}).length`).join(",")
        }]));\n`,
    );
    const result = await run([NODE_BIN, script], { cwd: install });
    assert.equal(result.code, 0, result.stderr);
    for (const count of JSON.parse(result.stdout)) {
      assert.ok(count > 0, "an entry point exports nothing");
    }
  });
});
