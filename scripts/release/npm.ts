/**
 * The npm tarball: built with scripts/build_npm.ts, packed into the release
 * folder, then proven as a user gets it: installed into an empty project,
 * its library loaded by `import` and by `require` (each replaying a cassette
 * to the official SDK client), and its `mcp-cassette` executable started
 * the way a desktop client starts a server (from `/`, `PATH` reduced to the
 * system's folders and the node it runs on).
 *
 * @module
 */
import * as fs from "node:fs";
import path from "node:path";
import { buildNpm, PACKAGE_NAME } from "../build_npm.ts";
import {
  cleanFolder,
  desktopPath,
  failed,
  mustRun,
  type Outcome,
  ROOT,
  sdkCallsSum,
  SUM,
  SUM_CASSETTE,
} from "./common.ts";

/** The tarball in the release folder, with what `npm pack` says of it. */
export interface Tarball {
  file: string;
  packedBytes: number;
  unpackedBytes: number;
}

/** Builds the package into a temp folder and packs it into `outDir`. */
export function buildTarball(outDir: string): Tarball {
  const work = cleanFolder("npm-build");
  try {
    const build = buildNpm({ outDir: path.join(work, "package") });
    const ran = mustRun(["npm", "pack", "--json", "--pack-destination", outDir], {
      cwd: build.outDir,
    });
    const [info] = JSON.parse(ran.stdout) as {
      filename: string;
      size: number;
      unpackedSize: number;
    }[];
    const file = path.join(outDir, info.filename);
    return { file, packedBytes: fs.statSync(file).size, unpackedBytes: info.unpackedSize };
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

/** A user's script: the library replays the cassette to the SDK client; prints the answer. */
function libraryScript(kind: "esm" | "cjs"): string {
  const load = kind === "esm"
    ? `import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { startCassette } from "${PACKAGE_NAME}";
import { cassetteFileName } from "${PACKAGE_NAME}/testing";`
    : `const { Client } = require("@modelcontextprotocol/sdk/client/index.js");
const { StdioClientTransport } = require("@modelcontextprotocol/sdk/client/stdio.js");
const { startCassette } = require("${PACKAGE_NAME}");
const { cassetteFileName } = require("${PACKAGE_NAME}/testing");`;
  return `${load}
async function main() {
  if (cassetteFileName(["sum"]) !== "sum.cassette.jsonl") throw new Error("testing entry");
  const server = await startCassette({ path: "sum.cassette.jsonl", mode: "none" });
  const client = new Client({ name: "npm-user", version: "1.0.0" });
  try {
    await client.connect(new StdioClientTransport({ command: server.command, args: server.args }));
    const result = await client.callTool({ name: "get-sum", arguments: { a: 2, b: 40 } });
    console.log(result.content[0].text);
  } finally {
    await client.close();
  }
  await server.finish();
}
main().catch((error) => { console.error(String(error)); process.exit(1); });
`;
}

function sdkVersion(): string {
  const manifest = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8"));
  return manifest.devDependencies["@modelcontextprotocol/sdk"];
}

/** Installs the tarball into an empty project and uses it three ways; throws on the first miss. */
export async function proveTarball(tarball: string): Promise<string> {
  const project = cleanFolder("npm-user");
  try {
    fs.writeFileSync(
      path.join(project, "package.json"),
      JSON.stringify({ name: "npm-user", version: "1.0.0", private: true }),
    );
    mustRun([
      "npm",
      "install",
      "--no-audit",
      "--no-fund",
      "--prefer-offline",
      tarball,
      `@modelcontextprotocol/sdk@${sdkVersion()}`,
    ], { cwd: project });
    fs.copyFileSync(SUM_CASSETTE, path.join(project, "sum.cassette.jsonl"));
    for (const [kind, file] of [["esm", "user.mjs"], ["cjs", "user.cjs"]] as const) {
      fs.writeFileSync(path.join(project, file), libraryScript(kind));
      const said = mustRun(["node", file], { cwd: project }).stdout.trim();
      if (said !== SUM) throw new Error(`${kind === "esm" ? "import" : "require"}: got "${said}"`);
    }
    const bin = path.join(project, "node_modules", ".bin", "mcp-cassette");
    const cassette = path.join(project, "sum.cassette.jsonl");
    const text = await sdkCallsSum(bin, ["replay", cassette], desktopPath(true));
    if (text !== SUM) throw new Error(`mcp-cassette replay from /: got "${text}"`);
    return "import, require, and mcp-cassette started from / with a reduced PATH";
  } finally {
    fs.rmSync(project, { recursive: true, force: true });
  }
}

const kb = (bytes: number) => `${Math.round(bytes / 1024)} KB`;

/** Builds and proves the tarball. */
export async function releaseTarball(outDir: string): Promise<Outcome & { tarball?: Tarball }> {
  const artifact = "npm tarball";
  let tarball: Tarball;
  try {
    tarball = buildTarball(outDir);
  } catch (error) {
    return failed(artifact, [], error);
  }
  const files = [tarball.file];
  const size = `${kb(tarball.packedBytes)} packed, ${kb(tarball.unpackedBytes)} unpacked`;
  try {
    const proven = await proveTarball(tarball.file);
    return { artifact, files, status: "proven", detail: `${size}; ${proven}`, tarball };
  } catch (error) {
    return { ...failed(artifact, files, error), tarball };
  }
}
