/**
 * The npm package as a user gets it: build, `npm pack`, install the tarball
 * (and the official SDK client) into an empty project, then use it the ways
 * the package claims: the installed `mcp-cassette` bin records the
 * reference server under Node and replays it; the library, imported from
 * node_modules by Node (ES modules and `require`), Deno, Bun and jest's
 * CommonJS runtime, replays a committed cassette to the SDK client.
 *
 * Built, packed and installed once; every case shares the install (CI
 * passes the tarball its release built in MCP_CASSETTE_TARBALL: then it is
 * unpacked and packed again, not built). `npm
 * install` takes jsonc-parser, smol-toml and the SDK from the npm registry
 * (or its local cache).
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import path from "node:path";
import process from "node:process";
import { ROOT, run, tempDir } from "../helpers.ts";
import {
  BUN_BIN,
  DENO_BIN,
  denoScript,
  NODE_BIN,
  overridesInName,
  recordWith,
  replayWith,
} from "./_runtimes.ts";

interface PackedFile {
  path: string;
  mode: number;
}

interface Manifest {
  name: string;
  version: string;
  type: string;
  main: string;
  types: string;
  bin: Record<string, string>;
  engines: { node: string };
  dependencies: Record<string, string>;
  devDependencies?: unknown;
  scripts?: unknown;
  exports: Record<string, { import: Condition; require: Condition } | string>;
}

interface Condition {
  types: string;
  default: string;
}

/** The committed cassette every library case replays: server-everything's get-sum. */
const CASSETTE = path.join(ROOT, "examples/runners/node/cassettes/adds-two-numbers.cassette.jsonl");
const SUM = "The sum of 2 and 40 is 42.";
const SDK_VERSION = JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8"))
  .devDependencies["@modelcontextprotocol/sdk"] as string;

function npm(args: string[], cwd: string): string {
  // npm is npm.cmd on Windows, which only a shell starts.
  const result = spawnSync("npm", args, {
    cwd,
    encoding: "utf8",
    shell: process.platform === "win32",
  });
  assert.equal(result.status, 0, `npm ${args.join(" ")} failed\n${result.stdout}${result.stderr}`);
  return result.stdout;
}

let work = "";
let outDir = "";
let project = "";
let manifest: Manifest;
let packed: { filename: string; files: PackedFile[] };

before(async () => {
  work = tempDir("mcp-cassette-npm-");
  outDir = path.join(work, "build");
  // Set first: with the build failed, the tests' files would otherwise land in the
  // working folder (path.join("", name)), the repository when run from its root.
  project = path.join(work, "project");
  const given = process.env.MCP_CASSETTE_TARBALL;
  if (given) {
    // CI's release packed and proved this tarball already: test what it shipped, unbuilt again.
    const unpacked = await run(["tar", "-xzf", path.resolve(ROOT, given), "-C", work]);
    assert.equal(unpacked.code, 0, unpacked.stderr);
    renameSync(path.join(work, "package"), outDir);
  } else await denoScript("build_npm.ts", ["--out", outDir]);
  manifest = JSON.parse(readFileSync(path.join(outDir, "package.json"), "utf8"));
  packed = JSON.parse(npm(["pack", "--json", "--pack-destination", work], outDir))[0];
  mkdirSync(project);
  // A project of its own, CommonJS by default as most are (no "type" field).
  writeFileSync(
    path.join(project, "package.json"),
    JSON.stringify({ name: "npm-user", version: "1.0.0", private: true }),
  );
  npm([
    "install",
    "--no-audit",
    "--no-fund",
    "--prefer-offline",
    path.join(work, packed.filename),
    `@modelcontextprotocol/sdk@${SDK_VERSION}`,
  ], project);
  copyFileSync(CASSETTE, path.join(project, "sum.cassette.jsonl"));
});

after(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

test(`npm package${overridesInName("MCP_CASSETTE_TARBALL")}: manifest, exports and tarball contents`, () => {
  assert.equal(manifest.name, "@mcp-cassette/mcp-cassette");
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
  // Both entry points, each as ES modules and as CommonJS, with their types.
  assert.deepEqual(Object.keys(manifest.exports), [".", "./testing", "./package.json"]);
  for (const subpath of [".", "./testing"]) {
    const entry = manifest.exports[subpath];
    assert.equal(typeof entry, "object", `exports["${subpath}"]`);
    const { import: esm, require: cjs } = entry as { import: Condition; require: Condition };
    for (const file of [esm.types, esm.default, cjs.types, cjs.default]) {
      assert.ok(existsSync(path.join(outDir, file)), `exports["${subpath}"] names ${file}, absent`);
    }
    assert.match(cjs.default, /^\.\/cjs\//);
  }
  assert.equal(manifest.main, "./cjs/mod.js");
  assert.ok(existsSync(path.join(outDir, manifest.types)), `types ${manifest.types} is missing`);
  assert.deepEqual(
    JSON.parse(readFileSync(path.join(outDir, "cjs", "package.json"), "utf8")),
    { type: "commonjs" },
  );
  // CommonJS cannot hold top-level await or import.meta: none in what `require` loads.
  const cjsRuntime = readFileSync(path.join(outDir, "cjs/src/runtime/mod.js"), "utf8");
  assert.doesNotMatch(cjsRuntime, /\bawait\b/);

  const files = packed.files.map((file) => file.path);
  for (
    const wanted of [
      "package.json",
      "README.md",
      "LICENSE",
      "cli.js",
      "cli.d.ts",
      "src/cli/main.js",
      "cjs/package.json",
      "cjs/mod.js",
      "cjs/src/testing/mod.js",
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
});

test("npm package: the installed bin records under Node and replays under Node, Bun and Deno", async () => {
  const pkgDir = path.join(project, "node_modules", "@mcp-cassette", "mcp-cassette");
  // On Windows .bin holds .cmd shims; Node runs the bin's target itself.
  const bin = process.platform === "win32"
    ? path.join(pkgDir, "cli.js")
    : path.join(project, "node_modules", ".bin", "mcp-cassette");
  if (process.platform !== "win32") {
    assert.ok(statSync(bin).mode & 0o111, "the installed bin is not executable");
  }
  for (const name of ["jsonc-parser", "smol-toml"]) {
    assert.ok(existsSync(path.join(project, "node_modules", name)), `${name} is not installed`);
  }

  const version = await run([NODE_BIN, bin, "--version"], { cwd: project });
  assert.equal(version.code, 0, version.stderr);
  assert.equal(version.stdout.trim(), `mcp-cassette ${manifest.version}`);

  // What a user types: npx finds the installed bin (no registry lookup with --no).
  const npx = spawnSync("npx", ["--no", "--", "mcp-cassette", "--version"], {
    cwd: project,
    encoding: "utf8",
    shell: process.platform === "win32",
  });
  assert.equal(npx.status, 0, npx.stderr);
  assert.equal(npx.stdout.trim(), `mcp-cassette ${manifest.version}`);

  // What the docs give for Bun: bunx --bun finds the installed bin.
  const bunx = await run([BUN_BIN, "x", "--bun", "mcp-cassette", "--version"], { cwd: project });
  assert.equal(bunx.code, 0, bunx.stderr);
  assert.equal(bunx.stdout.trim(), `mcp-cassette ${manifest.version}`);

  const cli = [NODE_BIN, bin];
  const cassette = path.join(work, "npm.cassette.jsonl");
  const recorded = await recordWith(cli, cassette);
  const script = path.join(pkgDir, "cli.js");
  for (
    const [name, runner] of [
      ["Node", cli],
      ["Bun", [BUN_BIN, script]],
      ["Deno", [DENO_BIN, "run", "-A", script]],
    ] as const
  ) {
    assert.deepEqual(await replayWith(runner, cassette), recorded, `replayed by ${name}`);
  }
});

/**
 * A script that replays sum.cassette.jsonl with `startCassette` (from the
 * package's main entry) and the `@mcp-cassette/mcp-cassette/testing` helpers' name check,
 * calls get-sum through the SDK client, and prints what it saw.
 */
function clientScript(kind: "esm" | "cjs"): string {
  const load = kind === "esm"
    ? `import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { startCassette } from "@mcp-cassette/mcp-cassette";
import { cassetteFileName } from "@mcp-cassette/mcp-cassette/testing";
`
    : `const { Client } = require("@modelcontextprotocol/sdk/client/index.js");
const { StdioClientTransport } = require("@modelcontextprotocol/sdk/client/stdio.js");
const { startCassette } = require("@mcp-cassette/mcp-cassette");
const { cassetteFileName } = require("@mcp-cassette/mcp-cassette/testing");
`;
  return `${load}
async function main() {
  const server = await startCassette({ path: "sum.cassette.jsonl", mode: "none" });
  const client = new Client({ name: "npm-user", version: "1.0.0" });
  let text;
  try {
    await client.connect(new StdioClientTransport({ command: server.command, args: server.args, stderr: "pipe" }));
    const result = await client.callTool({ name: "get-sum", arguments: { a: 2, b: 40 } });
    text = result.content[0].text;
  } finally {
    await client.close();
  }
  const finished = await server.finish();
  console.log(JSON.stringify({
    text,
    action: server.action,
    cli: server.args.find((arg) => /cli\\.(js|ts)$/.test(arg)) ?? server.command,
    launches: finished.launches,
    misses: finished.misses.length,
    name: cassetteFileName(["adds two numbers"]),
  }));
}
main().catch((error) => {
  console.error(error);
  process.exit(1);
});
`;
}

const LIBRARY_CASES: [string, string[], "esm" | "cjs"][] = [
  ["Node, ES modules (import)", [NODE_BIN], "esm"],
  ["Node, CommonJS (require)", [NODE_BIN], "cjs"],
  ["Deno (deno run -A)", [DENO_BIN, "run", "-A"], "esm"],
  ["Bun, ES modules", [BUN_BIN], "esm"],
  ["Bun, CommonJS (require)", [BUN_BIN], "cjs"],
];

for (const [name, runner, kind] of LIBRARY_CASES) {
  test(`npm package: the library from node_modules under ${name} replays a cassette to the SDK client`, async () => {
    const script = path.join(project, `replay-${kind}.${kind === "esm" ? "mjs" : "cjs"}`);
    writeFileSync(script, clientScript(kind));
    const result = await run([...runner, script], {
      cwd: project,
      env: { MCP_CASSETTE_MODE: undefined },
    });
    assert.equal(result.code, 0, `${name}: exit ${result.code}\n${result.stdout}${result.stderr}`);
    const seen = JSON.parse(result.stdout.trim().split("\n").pop()!);
    assert.equal(seen.text, SUM);
    assert.equal(seen.action, "replay");
    assert.deepEqual(seen.launches, [{ action: "replay", code: 0 }]);
    assert.equal(seen.misses, 0);
    assert.equal(seen.name, "adds-two-numbers.cassette.jsonl");
    // The replay the library started is the installed package's own cli.js
    // (Deno names it by a URL's path, /C:/… on Windows; macOS's temp folder is a symlink).
    assert.equal(
      realpathSync(String(seen.cli).replace(/^\/(?=[A-Za-z]:)/, "")),
      realpathSync(path.join(project, "node_modules", "@mcp-cassette", "mcp-cassette", "cli.js")),
      `${name} started ${seen.cli}`,
    );
  });
}

test("npm package: jest's CommonJS runtime (no ES module support) loads @mcp-cassette/mcp-cassette/testing", async () => {
  // What ts-jest and babel set-ups amount to: test files run as CommonJS and
  // require() the package, with no --experimental-vm-modules.
  writeFileSync(
    path.join(project, "jest.config.js"),
    `module.exports = { testEnvironment: "node", transform: {}, watchman: false, testMatch: ["<rootDir>/*.test.js"] };\n`,
  );
  writeFileSync(
    path.join(project, "sum.test.js"),
    `const { Client } = require("@modelcontextprotocol/sdk/client/index.js");
const { StdioClientTransport } = require("@modelcontextprotocol/sdk/client/stdio.js");
const { useJestCassette } = require("@mcp-cassette/mcp-cassette/testing");

test("adds two numbers", async () => {
  const cassette = await useJestCassette({ dir: __dirname, name: "sum.cassette.jsonl" });
  const client = new Client({ name: "jest", version: "1.0.0" });
  try {
    await client.connect(new StdioClientTransport({ command: cassette.command, args: cassette.args, stderr: "ignore" }));
    const result = await client.callTool({ name: "get-sum", arguments: { a: 2, b: 40 } });
    expect(result.content).toEqual([{ type: "text", text: ${JSON.stringify(SUM)} }]);
  } finally {
    await client.close();
  }
  await cassette.finish();
});
`,
  );
  const jest = path.join(ROOT, "node_modules", "jest", "bin", "jest.js");
  // jest's cache goes to the project's temp folder, not the system's (it would outlive the test).
  const cache = path.join(project, ".jest-cache");
  const result = await run([
    NODE_BIN,
    jest,
    "--ci",
    "--rootDir",
    project,
    "--cacheDirectory",
    cache,
  ], {
    cwd: project,
    env: { MCP_CASSETTE_MODE: "none" },
    timeoutMs: 120_000,
  });
  assert.equal(result.code, 0, result.stdout + result.stderr);
  assert.match(result.stderr, /Tests:\s+1 passed/);
});

test("npm package: TypeScript finds the declarations from CommonJS and from ES modules", async () => {
  writeFileSync(
    path.join(project, "types.cts"),
    `import { startCassette, UsageError } from "@mcp-cassette/mcp-cassette";
import { cassetteFileName, useJestCassette } from "@mcp-cassette/mcp-cassette/testing";
const started: Promise<{ command: string }> = startCassette({ path: "x.cassette.jsonl", replay: { strict: true } });
const name: string = cassetteFileName(["a"]);
void started; void name; void useJestCassette; void UsageError;
`,
  );
  writeFileSync(
    path.join(project, "types.mts"),
    `import { startCassette } from "@mcp-cassette/mcp-cassette";
import { useCassette } from "@mcp-cassette/mcp-cassette/testing";
const started: Promise<{ args: string[] }> = startCassette({ path: "x.cassette.jsonl", replay: { pace: "recorded" } });
void started; void useCassette;
`,
  );
  const tsc = path.join(ROOT, "node_modules", "typescript", "bin", "tsc");
  const result = await run([
    NODE_BIN,
    tsc,
    "--noEmit",
    "--strict",
    "--skipLibCheck",
    "--module",
    "node16",
    "--moduleResolution",
    "node16",
    "--types",
    "node",
    "--typeRoots",
    path.join(ROOT, "node_modules", "@types"),
    "types.cts",
    "types.mts",
  ], { cwd: project });
  assert.equal(result.code, 0, result.stdout + result.stderr);
});
