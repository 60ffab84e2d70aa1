/**
 * Builds every artifact of a release into dist/ (or `--out DIR`) and proves
 * each one from a clean temporary folder, as a user gets it:
 *
 * - the npm tarball (scripts/release/npm.ts),
 * - the standalone binary per platform (scripts/release/binary.ts),
 * - the Python wheel around this machine's binary (scripts/release/wheel.ts),
 * - SHA256SUMS over them, and docs/install.md's size figures checked
 *   against what was built (scripts/release/figures.ts).
 *
 * One line per artifact. A platform that cannot be built is a line saying
 * why, and the rest are still built and proven. Exit 0 when every built
 * artifact was proven, 1 when a build or a proof failed, 2 on bad input
 * (an unknown option, or `--host` on a platform we ship no binary for).
 *
 * Usage: deno run -A scripts/release.ts [--host] [--out DIR]
 *   --host  only this machine's binary (and the tarball and its wheel)
 *
 * MCP_CASSETTE_HOST_PLATFORM overrides the host's name (linux-x64, …), to
 * check what `--host` says on a machine we cannot build for.
 *
 * @module
 */
import * as fs from "node:fs";
import path from "node:path";
import process from "node:process";
import { parseArgs } from "node:util";
import { binaryName, PLATFORMS } from "./compile.ts";
import { releaseBinary } from "./release/binary.ts";
import { type Outcome, ROOT, sha256 } from "./release/common.ts";
import { checkFigures } from "./release/figures.ts";
import { releaseTarball } from "./release/npm.ts";
import { releaseWheel } from "./release/wheel.ts";

/** This machine's platform name, as compile.ts names platforms. */
function hostName(): string {
  const given = process.env.MCP_CASSETTE_HOST_PLATFORM;
  if (given) return given;
  return `${process.platform === "win32" ? "windows" : process.platform}-${process.arch}`;
}

/** Writes SHA256SUMS over every file the release put into `outDir`. */
function writeSums(outDir: string, files: string[]): Outcome {
  const lines = files.map((file) => `${sha256(file)}  ${path.basename(file)}\n`).join("");
  const sums = path.join(outDir, "SHA256SUMS");
  fs.writeFileSync(sums, lines);
  return {
    artifact: "SHA256SUMS",
    files: [sums],
    status: "proven",
    detail: `${files.length} files`,
  };
}

function report(outcome: Outcome): void {
  console.log(`${outcome.status.padEnd(7)} ${outcome.artifact}: ${outcome.detail}`);
}

/** Runs the release; returns its exit code. */
async function release(options: { host: boolean; outDir: string }): Promise<number> {
  const host = PLATFORMS.find((platform) => platform.name === hostName());
  if (options.host && !host) {
    const known = PLATFORMS.map((platform) => platform.name).join(", ");
    console.error(`release: --host: no binary for this machine (${hostName()}); we build ${known}`);
    return 2;
  }
  fs.mkdirSync(options.outDir, { recursive: true });
  const outcomes: Outcome[] = [];
  const note = (outcome: Outcome) => {
    outcomes.push(outcome);
    report(outcome);
  };
  const tarball = await releaseTarball(options.outDir);
  note(tarball);
  for (const platform of options.host ? [host!] : PLATFORMS) {
    note(await releaseBinary(options.outDir, platform, platform === host));
  }
  const hostBinary = host && path.join(options.outDir, binaryName(host));
  const binaryBuilt = hostBinary && outcomes.some((o) => o.files.includes(hostBinary));
  if (host) note(releaseWheel(options.outDir, binaryBuilt ? hostBinary : undefined, host));
  else {note({
      artifact: "python wheel",
      files: [],
      status: "skipped",
      detail: `no binary for ${hostName()}`,
    });}
  note(checkFigures({
    packedBytes: tarball.tarball?.packedBytes,
    unpackedBytes: tarball.tarball?.unpackedBytes,
    binaryBytes: binaryBuilt ? fs.statSync(hostBinary).size : undefined,
  }));
  note(writeSums(options.outDir, outcomes.flatMap((outcome) => outcome.files)));
  const failures = outcomes.filter((outcome) => outcome.status === "failed").length;
  console.log(failures ? `release: ${failures} failed` : `release: ready in ${options.outDir}`);
  return failures ? 1 : 0;
}

async function main(): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      args: process.argv.slice(2),
      options: { host: { type: "boolean", default: false }, out: { type: "string" } },
    }));
  } catch (error) {
    console.error(`release: ${(error as Error).message}`);
    return 2;
  }
  return await release({
    host: values.host ?? false,
    outDir: path.resolve(values.out ?? path.join(ROOT, "dist")),
  });
}

process.exit(await main());
