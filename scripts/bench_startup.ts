/**
 * Start-up and size of each way to run mcp-cassette (issue 7). Not a test:
 * figures go into BENCHMARKS.md, never into assertions.
 *
 * Start-up is what a client waits for when `replay` sits in its config:
 * from spawning the process, through sending `initialize` on stdin, to the
 * answer's line on stdout. Measured for `deno run`, `bun cli.ts`,
 * `node npm/cli.js` and the compiled binary, median of --runs (20), the
 * variants alternating so that the machine's load moves them alike.
 *
 * Size: the compiled binary, the npm tarball, and the package installed
 * into an empty folder (`npm install`, which fetches the dependencies from
 * the npm registry): with and without its dependencies, and how many.
 *
 * Usage: deno run -A scripts/bench_startup.ts [--runs N] [--write]
 *   --write  replace the "Start-up and size (issue 7)" section of BENCHMARKS.md
 *
 * @module
 */
import { spawn, spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import path from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { buildNpm, PACKAGE_NAME } from "./build_npm.ts";
import { compile, hostPlatform } from "./compile.ts";
import { replaceSection } from "./bench/benchmarks_md.ts";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const CASSETTE = path.join(ROOT, "examples", "cassettes", "weather.cassette.jsonl");
const SECTION = "## Start-up and size (issue 7)";
const EXE = process.platform === "win32" ? ".exe" : "";
const DENO = path.join(ROOT, "node_modules", "deno", `deno${EXE}`);
const BUN = path.join(ROOT, "node_modules", "bun", "bin", "bun.exe");

const INITIALIZE = JSON.stringify({
  jsonrpc: "2.0",
  id: 0,
  method: "initialize",
  params: {
    protocolVersion: "2025-11-25",
    capabilities: {},
    clientInfo: { name: "bench", version: "1" },
  },
}) + "\n";

/** Milliseconds from spawn to the first complete line on stdout. */
function timeToFirstAnswer(command: readonly string[]): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(command[0], [...command.slice(1), "replay", "-q", CASSETTE], {
      stdio: ["pipe", "pipe", "ignore"],
    });
    let buffered = "";
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`${command.join(" ")}: no answer within 30 s`));
    }, 30_000);
    child.on("error", reject);
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      buffered += chunk;
      if (!buffered.includes("\n")) return;
      const elapsed = performance.now() - started;
      clearTimeout(timer);
      if (!buffered.includes('"protocolVersion"')) {
        reject(new Error(`Unexpected answer: ${buffered}`));
      }
      child.stdin.end();
      child.kill();
      resolve(elapsed);
    });
    child.stdin.on("error", () => {});
    child.stdin.write(INITIALIZE);
  });
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** Bytes on disk under `dir` (apparent sizes). */
function treeBytes(dir: string): number {
  let total = 0;
  for (const item of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, item.name);
    if (item.isDirectory()) total += treeBytes(full);
    else if (item.isFile()) total += fs.statSync(full).size;
  }
  return total;
}

/** Kilobytes as `du -sk` reports them (allocated blocks), where `du` exists. */
function duKilobytes(dir: string): number | undefined {
  const result = spawnSync("du", ["-sk", dir], { encoding: "utf8" });
  return result.status === 0 ? Number(result.stdout.split(/\s/)[0]) : undefined;
}

function version(command: string, args: string[]): string {
  const result = spawnSync(command, args, { encoding: "utf8" });
  return (result.stdout || "?").trim().split("\n")[0];
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(0)} KB`;
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

interface Sizes {
  tarball: number;
  unpacked: number;
  packageBytes: number;
  packageDuKb?: number;
  installedBytes: number;
  installedDuKb?: number;
  dependencies: string[];
}

function measureNpm(work: string): Sizes {
  const build = buildNpm({ outDir: path.join(work, "npm"), packTo: work });
  const shell = process.platform === "win32";
  const packed = spawnSync("npm", ["pack", "--dry-run", "--json"], {
    cwd: build.outDir,
    encoding: "utf8",
    shell,
  });
  const info = JSON.parse(packed.stdout)[0] as { size: number; unpackedSize: number };
  const install = path.join(work, "install");
  fs.mkdirSync(install);
  const installed = spawnSync("npm", ["install", "--no-audit", "--no-fund", build.tarball!], {
    cwd: install,
    encoding: "utf8",
    shell,
  });
  if (installed.status !== 0) throw new Error(`npm install failed: ${installed.stderr}`);
  const modules = path.join(install, "node_modules");
  const pkg = path.join(modules, ...PACKAGE_NAME.split("/"));
  const dependencies = fs.readdirSync(modules)
    .filter((name) => !name.startsWith("."))
    .flatMap((name) =>
      name.startsWith("@")
        ? fs.readdirSync(path.join(modules, name)).map((n) => `${name}/${n}`)
        : [name]
    ).filter((name) => name !== PACKAGE_NAME);
  return {
    tarball: info.size,
    unpacked: info.unpackedSize,
    packageBytes: treeBytes(pkg),
    packageDuKb: duKilobytes(pkg),
    installedBytes: treeBytes(modules),
    installedDuKb: duKilobytes(modules),
    dependencies,
  };
}

/**
 * Times every variant in turn, round after round (one warm-up round first):
 * a machine whose load moves during the runs moves every variant alike, so
 * the figures compare within the run. One table row per variant.
 */
async function alternating(variants: [string, string[]][], runs: number): Promise<string[]> {
  for (const [, command] of variants) await timeToFirstAnswer(command);
  const times: number[][] = variants.map(() => []);
  for (let round = 0; round < runs; round++) {
    for (const [i, [, command]] of variants.entries()) {
      times[i].push(await timeToFirstAnswer(command));
    }
  }
  return variants.map(([label], i) => {
    const sorted = [...times[i]].sort((a, b) => a - b);
    console.error(`${label}: median ${median(times[i]).toFixed(0)} ms`);
    return `| ${label} | ${median(times[i]).toFixed(0)} | ${sorted[0].toFixed(0)} | ${
      sorted[sorted.length - 1].toFixed(0)
    } |`;
  });
}

async function main() {
  const { values } = parseArgs({
    args: process.argv.slice(2),
    options: {
      runs: { type: "string", default: "20" },
      write: { type: "boolean", default: false },
    },
  });
  const runs = Number(values.runs);
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "mcp-cassette-bench-"));
  console.error("Building the npm package and the host binary…");
  const sizes = measureNpm(work);
  const [binary] = compile({ platforms: [hostPlatform()], outDir: path.join(work, "bin") });
  const npmCli = path.join(ROOT, "npm", "cli.js");
  buildNpm(); // node npm/cli.js resolves its dependencies from the repository's node_modules.

  const variants: [string, string[]][] = [
    ["`deno run -A --no-check cli.ts`", [
      DENO,
      "run",
      "-A",
      "--no-check",
      path.join(ROOT, "cli.ts"),
    ]],
    ["`bun cli.ts`", [BUN, path.join(ROOT, "cli.ts")]],
    ["`node npm/cli.js` (npm build)", ["node", npmCli]],
    ["`bun npm/cli.js` (npm build)", [BUN, npmCli]],
    ["compiled binary (bun build --compile)", [binary]],
  ];
  const loadAverage = os.loadavg().map((load) => load.toFixed(2)).join(", ");
  const rows = await alternating(variants, runs);
  const cpus = os.cpus();
  const du = (k?: number) => (k === undefined ? "" : ` (du: ${k} KB)`);
  const section = [
    SECTION,
    "",
    "Measured by `deno run -A scripts/bench_startup.ts --write` " +
    `on ${os.type()} ${os.arch()}, ${cpus.length} × ${cpus[0]?.model.trim() ?? "?"}; ` +
    `${version(DENO, ["--version"])}, bun ${version(BUN, ["--version"])}, node ${
      version("node", ["--version"])
    }.`,
    "",
    `### Start-up to the first answer of \`replay\` (ms, ${runs} runs each)`,
    "",
    "Spawn `<cli> replay -q examples/cassettes/weather.cassette.jsonl`, write `initialize` on stdin,",
    "stop the clock when the answer's line arrives on stdout. The variants alternate, round after",
    "round, after one warm-up round, so load on the machine moves them alike. Load average",
    `when the runs began: ${loadAverage} (other work on the machine shows up as a wide min–max).`,
    "",
    "| How it runs | median | min | max |",
    "| --- | --- | --- | --- |",
    ...rows,
    "",
    "### Size",
    "",
    "| What | Size |",
    "| --- | --- |",
    `| compiled binary, ${hostPlatform().name} | ${mb(fs.statSync(binary).size)} |`,
    `| npm tarball (\`npm pack\`) | ${kb(sizes.tarball)} (unpacked ${kb(sizes.unpacked)}) |`,
    `| installed \`node_modules/${PACKAGE_NAME}\` alone | ${kb(sizes.packageBytes)}${
      du(sizes.packageDuKb)
    } |`,
    `| installed with its dependencies (\`node_modules\`) | ${kb(sizes.installedBytes)}${
      du(sizes.installedDuKb)
    } |`,
    `| runtime dependencies | ${sizes.dependencies.length}: ${sizes.dependencies.join(", ")} |`,
    "",
  ].join("\n");
  fs.rmSync(work, { recursive: true, force: true });
  console.log(section);
  if (values.write) writeSection(section);
}

/** Replaces our section of BENCHMARKS.md, its tables aligned as `deno fmt` aligns them. */
function writeSection(section: string) {
  const file = path.join(ROOT, "BENCHMARKS.md");
  replaceSection(file, SECTION, section);
  spawnSync(DENO, ["fmt", file], { cwd: ROOT, stdio: "ignore" });
}

await main();
