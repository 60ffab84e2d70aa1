/**
 * Builds the standalone `mcp-cassette` executable, one per platform, into
 * dist/ (or `--outdir DIR`), with a SHA256SUMS file beside them.
 *
 * Two compilers make the same binary from cli.ts:
 * - `bun build --compile` (the default): works offline here for every
 *   platform, because Bun fetches the other platforms' runtimes from the npm
 *   registry.
 * - `deno compile` (`--deno`, for releases): downloads `denort` for each
 *   target from dl.deno.land, which this development machine cannot reach.
 *
 * Usage: deno run -A scripts/compile.ts [--deno] [--host | --target NAME ...] [--outdir DIR]
 *   NAME is one of linux-x64, linux-arm64, darwin-x64, darwin-arm64, windows-x64.
 *
 * @module
 */
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import path from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** One platform we ship a binary for, with each compiler's name for it. */
export interface Platform {
  name: string;
  bun: string;
  deno: string;
  exe: boolean;
}

/** Every platform of a release. */
export const PLATFORMS: readonly Platform[] = [
  { name: "linux-x64", bun: "bun-linux-x64", deno: "x86_64-unknown-linux-gnu", exe: false },
  { name: "linux-arm64", bun: "bun-linux-arm64", deno: "aarch64-unknown-linux-gnu", exe: false },
  { name: "darwin-x64", bun: "bun-darwin-x64", deno: "x86_64-apple-darwin", exe: false },
  { name: "darwin-arm64", bun: "bun-darwin-arm64", deno: "aarch64-apple-darwin", exe: false },
  { name: "windows-x64", bun: "bun-windows-x64", deno: "x86_64-pc-windows-msvc", exe: true },
];

/** The platform this process runs on, if we ship a binary for it. */
export function hostPlatform(): Platform {
  const os = process.platform === "win32" ? "windows" : process.platform;
  const name = `${os}-${process.arch}`;
  const platform = PLATFORMS.find((candidate) => candidate.name === name);
  if (!platform) throw new Error(`No binary target for this host (${name})`);
  return platform;
}

/** The file name of a platform's binary. */
export function binaryName(platform: Platform): string {
  return `mcp-cassette-${platform.name}${platform.exe ? ".exe" : ""}`;
}

/** The compiler's real binary from node_modules (not a .bin shim, which is a .cmd on Windows). */
function tool(name: "bun" | "deno"): string {
  const local = name === "bun"
    ? path.join(ROOT, "node_modules", "bun", "bin", "bun.exe")
    : path.join(ROOT, "node_modules", "deno", process.platform === "win32" ? "deno.exe" : "deno");
  return fs.existsSync(local) ? local : name;
}

/**
 * Compiles one platform's binary beside its final place and moves it there
 * only once the compiler succeeded: a failed build leaves the binary that was
 * there before (compilers write their output file in place as they go).
 */
function compileOne(platform: Platform, outDir: string, useDeno: boolean, entry: string): string {
  const final = path.join(outDir, binaryName(platform));
  // A folder of its own, so the compiler sees the final file name (Bun adds
  // .exe to a Windows binary not named so) and the rename stays on one disk.
  const staging = fs.mkdtempSync(path.join(outDir, `.${binaryName(platform)}-`));
  try {
    const outfile = path.join(staging, binaryName(platform));
    runCompiler(platform, outfile, useDeno, entry);
    fs.renameSync(outfile, final);
    return final;
  } finally {
    fs.rmSync(staging, { recursive: true, force: true });
  }
}

function runCompiler(platform: Platform, outfile: string, useDeno: boolean, entry: string): void {
  // The CLI loads its commands by specifiers built from a folder name (see
  // src/cli/registry.ts): scripts/compile_bun.ts folds them back into
  // literals and bundles them; Deno is told to include src/ (the
  // commands and what they load by built specifiers too),
  // and the recorder's thread module, which is started, not imported.
  const args = useDeno
    ? [
      "compile",
      "-A",
      "--no-check",
      "--include",
      path.join(ROOT, "src"),
      "--include",
      path.join(ROOT, "src", "record", "stdio_thread.ts"),
      "--target",
      platform.deno,
      "--output",
      outfile,
      entry,
    ]
    : [path.join(ROOT, "scripts", "compile_bun.ts"), platform.bun, outfile, entry];
  const result = spawnSync(tool(useDeno ? "deno" : "bun"), args, { cwd: ROOT, encoding: "utf8" });
  if (result.error) throw new Error(`Cannot start the compiler: ${result.error.message}`);
  if (result.status !== 0) {
    throw new Error(
      `Compiling for ${platform.name} failed (exit ${result.status}):\n${result.stdout}${result.stderr}`,
    );
  }
  if (!fs.existsSync(outfile)) {
    throw new Error(`Compiling for ${platform.name} reported success but wrote no ${outfile}`);
  }
}

function sha256(file: string): string {
  return createHash("sha256").update(fs.readFileSync(file)).digest("hex");
}

/**
 * Writes SHA256SUMS for the binaries that are in `outDir` now, whichever
 * run built them; with none, there is no SHA256SUMS.
 */
export function writeSums(outDir: string): void {
  const present = PLATFORMS.map(binaryName).filter((name) =>
    fs.existsSync(path.join(outDir, name))
  );
  const sumsFile = path.join(outDir, "SHA256SUMS");
  if (present.length === 0) {
    fs.rmSync(sumsFile, { force: true });
    return;
  }
  const sums = present.map((name) => `${sha256(path.join(outDir, name))}  ${name}\n`).join("");
  fs.writeFileSync(sumsFile, sums);
}

/**
 * Compiles `platforms` into `outDir`; returns the binaries' paths. Stops at
 * the first failure; SHA256SUMS is rewritten either way, for what exists.
 * `entry` is the script to compile (cli.ts).
 */
export function compile(
  options: { platforms: readonly Platform[]; outDir?: string; deno?: boolean; entry?: string },
): string[] {
  const outDir = path.resolve(options.outDir ?? path.join(ROOT, "dist"));
  const entry = options.entry ?? path.join(ROOT, "cli.ts");
  fs.mkdirSync(outDir, { recursive: true });
  try {
    return options.platforms.map((platform) =>
      compileOne(platform, outDir, options.deno ?? false, entry)
    );
  } finally {
    writeSums(outDir);
  }
}

if (path.resolve(fileURLToPath(import.meta.url)) === path.resolve(process.argv[1] ?? "")) {
  const { values } = parseArgs({
    args: process.argv.slice(2),
    options: {
      deno: { type: "boolean", default: false },
      host: { type: "boolean", default: false },
      target: { type: "string", multiple: true },
      outdir: { type: "string" },
    },
  });
  try {
    const platforms = values.host
      ? [hostPlatform()]
      : values.target?.length
      ? values.target.map((name) => {
        const platform = PLATFORMS.find((candidate) => candidate.name === name);
        if (!platform) {
          throw new Error(
            `Unknown target "${name}"; use one of ${PLATFORMS.map((p) => p.name).join(", ")}`,
          );
        }
        return platform;
      })
      : PLATFORMS;
    for (const file of compile({ platforms, outDir: values.outdir, deno: values.deno })) {
      const mb = (fs.statSync(file).size / 1e6).toFixed(1);
      console.log(`${path.relative(process.cwd(), file)}  ${mb} MB`);
    }
  } catch (error) {
    console.error(`compile: ${(error as Error).message}`);
    process.exit(1);
  }
}
