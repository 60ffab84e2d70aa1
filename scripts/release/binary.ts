/**
 * The standalone binaries: one per platform, compiled by scripts/compile.ts
 * (Bun, offline). A platform that cannot be built is one line saying why,
 * and the others still build. This machine's binary is then proven as a
 * user gets it: copied alone into a clean folder and started the way a
 * desktop client starts a server (from `/`, `PATH=/usr/bin:/bin`), it
 * replays a cassette to the official SDK client. The others cannot run here.
 *
 * @module
 */
import * as fs from "node:fs";
import path from "node:path";
import { binaryName, compile, type Platform } from "../compile.ts";
import {
  cleanFolder,
  desktopPath,
  failed,
  type Outcome,
  sdkCallsSum,
  SUM,
  SUM_CASSETTE,
} from "./common.ts";

/** Replays the cassette through a copy of `binary` in a folder of its own. */
export async function proveBinary(binary: string, platform: Platform): Promise<string> {
  const folder = cleanFolder("binary");
  try {
    const copy = path.join(folder, binaryName(platform));
    fs.copyFileSync(binary, copy);
    fs.chmodSync(copy, 0o755);
    const cassette = path.join(folder, "sum.cassette.jsonl");
    fs.copyFileSync(SUM_CASSETTE, cassette);
    const text = await sdkCallsSum(copy, ["replay", cassette], desktopPath(false));
    if (text !== SUM) throw new Error(`replay from /: got "${text}"`);
    return "replayed a cassette to the SDK client, started from / with PATH=/usr/bin:/bin";
  } finally {
    fs.rmSync(folder, { recursive: true, force: true });
  }
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/** Builds one platform's binary; proves it when it is this machine's. */
export async function releaseBinary(
  outDir: string,
  platform: Platform,
  host: boolean,
): Promise<Outcome> {
  const artifact = `binary ${platform.name}`;
  let file: string;
  try {
    [file] = compile({ platforms: [platform], outDir });
  } catch (error) {
    // The compiler's own words, on one line: which platform and why.
    const why = (error as Error).message.split("\n").filter((line) => line.trim()).slice(-1)[0];
    return { artifact, files: [], status: "skipped", detail: `cannot be built here: ${why}` };
  }
  const size = mb(fs.statSync(file).size);
  if (!host) {
    return {
      artifact,
      files: [file],
      status: "built",
      detail: `${size}; not this machine's, not run`,
    };
  }
  try {
    return {
      artifact,
      files: [file],
      status: "proven",
      detail: `${size}; ${await proveBinary(file, platform)}`,
    };
  } catch (error) {
    return failed(artifact, [file], error);
  }
}
