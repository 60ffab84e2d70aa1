/**
 * Puts `mcp-cassette` on PATH from a checkout: compiles this machine's
 * standalone binary (scripts/compile.ts, Bun, offline) and installs it as
 * DIR/mcp-cassette (default ~/.local/bin). One process, no launcher: it
 * works from any folder, with a client's reduced PATH given its absolute
 * path, and a signal sent to it reaches the whole replay.
 *
 * Usage: deno run -A scripts/install_cli.ts [--dir DIR] [--from BINARY]
 *   (npm run install-cli, deno task install-cli)
 *   --from  install this already built binary instead of compiling one
 *
 * The file is written beside its place and renamed over it, so a client
 * starting `mcp-cassette` while it is replaced gets the old or the new one.
 *
 * @module
 */
import * as fs from "node:fs";
import * as os from "node:os";
import path from "node:path";
import process from "node:process";
import { parseArgs } from "node:util";
import { compile, hostPlatform } from "./compile.ts";

function install(dir: string, from: string | undefined): string {
  fs.mkdirSync(dir, { recursive: true });
  const name = process.platform === "win32" ? "mcp-cassette.exe" : "mcp-cassette";
  const target = path.join(dir, name);
  const staging = fs.mkdtempSync(path.join(dir, ".mcp-cassette-"));
  try {
    const built = from
      ? path.resolve(from)
      : compile({ platforms: [hostPlatform()], outDir: staging })[0];
    const next = path.join(staging, name);
    fs.copyFileSync(built, next);
    fs.chmodSync(next, 0o755);
    fs.renameSync(next, target);
    return target;
  } finally {
    fs.rmSync(staging, { recursive: true, force: true });
  }
}

function onPath(dir: string): boolean {
  const folders = (process.env.PATH ?? "").split(path.delimiter).map((folder) =>
    path.resolve(folder)
  );
  return folders.includes(path.resolve(dir));
}

function main(): number {
  let values;
  try {
    ({ values } = parseArgs({
      args: process.argv.slice(2),
      options: { dir: { type: "string" }, from: { type: "string" } },
    }));
  } catch (error) {
    console.error(`install-cli: ${(error as Error).message}`);
    return 2;
  }
  const dir = path.resolve(values.dir ?? path.join(os.homedir(), ".local", "bin"));
  let target: string;
  try {
    target = install(dir, values.from);
  } catch (error) {
    console.error(`install-cli: ${(error as Error).message.split("\n")[0]}`);
    return 1;
  }
  console.log(`installed ${target}`);
  if (!onPath(dir)) {
    console.log(`${dir} is not on PATH; add it (export PATH="${dir}:$PATH"), or use ${target}`);
  }
  return 0;
}

process.exit(main());
