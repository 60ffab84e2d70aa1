/**
 * Builds the pytest-mcp-cassette wheel for one platform, carrying that
 * platform's standalone mcp-cassette binary (scripts/compile.ts makes it).
 *
 * Usage: deno run -A scripts/build_wheel.ts [--out DIR] [--binary PATH] [--platform PLAT]
 *   DIR defaults to dist/python/; PLAT to this host (linux-x64, linux-arm64,
 *   darwin-x64, darwin-arm64, windows-x64); without --binary the binary is
 *   compiled into a temp folder. Prints the wheel's path as its last line.
 *
 * Metadata comes from bindings/python/pyproject.toml; its version must be the
 * engine's (deno.json), which the package checks again at run time.
 *
 * @module
 */
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import os from "node:os";
import path from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { parse as parseToml } from "smol-toml";
import { binaryName, hostPlatform, PLATFORMS } from "./compile.ts";
import type { Platform } from "./compile.ts";
import { zip } from "./wheel_zip.ts";
import type { ZipEntry } from "./wheel_zip.ts";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const PACKAGE = path.join(ROOT, "bindings", "python");
const MODULE = "pytest_mcp_cassette";

/** The highest glibc symbol version a Linux binary needs (manylinux's floor is 2.17). */
export function glibcNeeded(binary: Uint8Array): [number, number] {
  let best: [number, number] = [2, 17];
  const text = new TextDecoder("latin1").decode(binary);
  for (const [, major, minor] of text.matchAll(/GLIBC_(\d+)\.(\d+)/g)) {
    const found: [number, number] = [Number(major), Number(minor)];
    if (found[0] > best[0] || (found[0] === best[0] && found[1] > best[1])) best = found;
  }
  return best;
}

/** The wheel's platform tag: what the binary itself requires. */
export function platformTag(platform: Platform, binary: Uint8Array): string {
  switch (platform.name) {
    case "linux-x64":
    case "linux-arm64": {
      const [major, minor] = glibcNeeded(binary);
      const arch = platform.name === "linux-x64" ? "x86_64" : "aarch64";
      return `manylinux_${major}_${minor}_${arch}`;
    }
    // Bun's compiled binaries run on macOS 13 and later.
    case "darwin-x64":
      return "macosx_13_0_x86_64";
    case "darwin-arm64":
      return "macosx_13_0_arm64";
    case "windows-x64":
      return "win_amd64";
  }
  throw new Error(`No wheel tag for ${platform.name}`);
}

function sha256(data: Uint8Array): string {
  return createHash("sha256").update(data).digest("base64url");
}

function compileBinary(platform: Platform): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "mcp-cassette-wheel-"));
  const compiled = spawnSync(
    process.execPath,
    [
      "run",
      "-A",
      path.join(ROOT, "scripts", "compile.ts"),
      "--target",
      platform.name,
      "--outdir",
      dir,
    ],
    { cwd: ROOT, stdio: ["ignore", "ignore", "inherit"] },
  );
  if (compiled.status !== 0) throw new Error(`scripts/compile.ts failed (exit ${compiled.status})`);
  return path.join(dir, binaryName(platform));
}

function metadata(project: Record<string, unknown>): string {
  const lines = [
    "Metadata-Version: 2.1",
    `Name: ${project.name}`,
    `Version: ${project.version}`,
    `Summary: ${project.description}`,
    `License: ${project.license}`,
    `Requires-Python: ${project["requires-python"]}`,
    ...(project.classifiers as string[]).map((text) => `Classifier: ${text}`),
    ...(project.dependencies as string[]).map((text) => `Requires-Dist: ${text}`),
    "Description-Content-Type: text/markdown",
  ];
  return `${lines.join("\n")}\n\n${fs.readFileSync(path.join(PACKAGE, "README.md"), "utf8")}`;
}

/** The wheel's entries: the module's sources, the binary, and the dist-info. */
function entries(project: Record<string, unknown>, tag: string, binary: string, exe: boolean) {
  const sources = fs.readdirSync(path.join(PACKAGE, MODULE)).filter((name) => name.endsWith(".py"))
    .sort();
  const files: ZipEntry[] = sources.map((name) => ({
    name: `${MODULE}/${name}`,
    data: fs.readFileSync(path.join(PACKAGE, MODULE, name)),
    mode: 0o644,
  }));
  files.push({
    name: `${MODULE}/bin/mcp-cassette${exe ? ".exe" : ""}`,
    data: fs.readFileSync(binary),
    mode: 0o755,
  });
  const info = `${MODULE}-${project.version}.dist-info`;
  const points = (project["entry-points"] as Record<string, Record<string, string>>).pytest11;
  const text = (name: string, body: string) => ({
    name: `${info}/${name}`,
    data: new TextEncoder().encode(body),
    mode: 0o644,
  });
  files.push(
    text("METADATA", metadata(project)),
    text(
      "WHEEL",
      `Wheel-Version: 1.0\nGenerator: mcp-cassette build_wheel\nRoot-Is-Purelib: false\nTag: py3-none-${tag}\n`,
    ),
    text(
      "entry_points.txt",
      `[pytest11]\n${
        Object.entries(points).map(([key, value]) => `${key} = ${value}`).join("\n")
      }\n`,
    ),
    text("licenses/LICENSE", fs.readFileSync(path.join(ROOT, "LICENSE"), "utf8")),
  );
  const record = files.map((file) =>
    `${file.name},sha256=${sha256(file.data)},${file.data.length}`
  );
  files.push(text("RECORD", `${[...record, `${info}/RECORD,,`].join("\n")}\n`));
  return files;
}

function main(): void {
  const { values } = parseArgs({
    options: { out: { type: "string" }, binary: { type: "string" }, platform: { type: "string" } },
  });
  const platform = values.platform
    ? PLATFORMS.find((candidate) => candidate.name === values.platform)
    : hostPlatform();
  if (!platform) {
    throw new Error(
      `Unknown --platform ${values.platform} (one of ${PLATFORMS.map((p) => p.name).join(", ")})`,
    );
  }
  const pyproject = parseToml(fs.readFileSync(path.join(PACKAGE, "pyproject.toml"), "utf8"));
  const project = pyproject.project as Record<string, unknown>;
  const engine = JSON.parse(fs.readFileSync(path.join(ROOT, "deno.json"), "utf8")).version;
  if (project.version !== engine) {
    throw new Error(`bindings/python/pyproject.toml is ${project.version}, deno.json ${engine}`);
  }
  const binary = values.binary ? path.resolve(values.binary) : compileBinary(platform);
  const tag = platformTag(platform, fs.readFileSync(binary));
  const outDir = path.resolve(values.out ?? path.join(ROOT, "dist", "python"));
  fs.mkdirSync(outDir, { recursive: true });
  const wheel = path.join(outDir, `${MODULE}-${project.version}-py3-none-${tag}.whl`);
  // Written beside its final name and renamed: a failed build leaves no half wheel.
  const partial = `${wheel}.partial`;
  const out = fs.openSync(partial, "w");
  try {
    for (const chunk of zip(entries(project, tag, binary, platform.exe))) fs.writeSync(out, chunk);
  } finally {
    fs.closeSync(out);
  }
  fs.renameSync(partial, wheel);
  if (!values.binary) fs.rmSync(path.dirname(binary), { recursive: true, force: true });
  console.log(wheel);
}

try {
  main();
} catch (error) {
  console.error(`build_wheel: ${(error as Error).message}`);
  process.exit(1);
}
