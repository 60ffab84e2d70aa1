/**
 * What every artifact module of the release shares: how a step reports, how
 * a command runs, a clean folder, the environment a desktop client gives a
 * server, and the SDK client's call that proves a replay answers.
 *
 * @module
 */
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import path from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";
// @ts-types="../../node_modules/@modelcontextprotocol/sdk/dist/esm/client/index.d.ts"
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
// @ts-types="../../node_modules/@modelcontextprotocol/sdk/dist/esm/client/stdio.d.ts"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

/** The repository's root folder. */
export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");

/** The committed cassette every proof replays: server-everything's get-sum. */
export const SUM_CASSETTE = path.join(
  ROOT,
  "examples/runners/node/cassettes/adds-two-numbers.cassette.jsonl",
);
/** What the replay of {@linkcode SUM_CASSETTE} answers to get-sum(2, 40). */
export const SUM = "The sum of 2 and 40 is 42.";

/** What one artifact's build and proof came to. */
export interface Outcome {
  /** The artifact, as the release names it ("npm tarball", "binary linux-x64", …). */
  artifact: string;
  /** Files it put into the release folder. */
  files: string[];
  /** proven: built and proven; built: built, not runnable here; skipped: not built; failed. */
  status: "proven" | "built" | "skipped" | "failed";
  /** One line: what was proven, or why not. */
  detail: string;
}

/** What a finished command said. */
export interface Ran {
  status: number | null;
  stdout: string;
  stderr: string;
  error?: Error;
}

/** Runs a command to its end (a build step or a proof), never through a shell. */
export function exec(
  command: readonly string[],
  options: { cwd?: string; env?: Record<string, string>; timeoutMs?: number } = {},
): Ran {
  const result = spawnSync(command[0], command.slice(1), {
    cwd: options.cwd,
    env: options.env ?? process.env,
    encoding: "utf8",
    timeout: options.timeoutMs ?? 300_000,
    maxBuffer: 64 * 1024 * 1024,
  });
  return {
    status: result.status,
    stdout: result.stdout ?? "",
    stderr: result.stderr ?? "",
    error: result.error,
  };
}

/** Throws with the command's own words unless it exited 0. */
export function mustRun(
  command: readonly string[],
  options: { cwd?: string; env?: Record<string, string>; timeoutMs?: number } = {},
): Ran {
  const ran = exec(command, options);
  if (ran.status === 0) return ran;
  const said = `${ran.stderr}${ran.stdout}`.trim().split("\n").slice(-3).join(" | ");
  const why = ran.error ? ran.error.message : `exit ${ran.status}`;
  throw new Error(`${path.basename(command[0])} ${command.slice(1, 3).join(" ")}: ${why}: ${said}`);
}

/** A new empty folder under the system's temp folder: no checkout anywhere near it. */
export function cleanFolder(prefix: string): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), `mcp-cassette-release-${prefix}-`));
}

/**
 * The PATH a desktop client gives the servers it starts: the system's
 * folders, plus only the folder of the node that runs an npm executable
 * when it is not already among them.
 */
export function desktopPath(withNode: boolean): string {
  const folders = ["/usr/bin", "/bin"];
  if (withNode) {
    const node = exec(["node", "-e", "process.stdout.write(process.execPath)"]).stdout;
    const folder = node ? path.dirname(node) : "";
    if (folder && !folders.includes(folder)) folders.push(folder);
  }
  return folders.join(path.delimiter);
}

/**
 * Starts `command` the way a desktop client starts a server (from `/`, with
 * `PATH` reduced to `pathValue`), connects the official SDK client to it,
 * calls get-sum and returns the text it got.
 */
export async function sdkCallsSum(
  command: string,
  args: string[],
  pathValue: string,
): Promise<string> {
  const client = new Client({ name: "release-proof", version: "1.0.0" });
  const transport = new StdioClientTransport({
    command,
    args,
    cwd: "/",
    env: { PATH: pathValue },
    stderr: "pipe",
  });
  let stderr = "";
  transport.stderr?.on("data", (chunk: Buffer) => stderr += chunk.toString());
  try {
    await client.connect(transport);
    const result = await client.callTool({ name: "get-sum", arguments: { a: 2, b: 40 } });
    const [first] = result.content as { type: string; text?: string }[];
    return first?.text ?? JSON.stringify(result);
  } catch (error) {
    throw new Error(`${(error as Error).message}${stderr ? ` (stderr: ${stderr.trim()})` : ""}`);
  } finally {
    await client.close();
  }
}

/** A file's SHA-256, hex. */
export function sha256(file: string): string {
  return createHash("sha256").update(fs.readFileSync(file)).digest("hex");
}

/** An outcome from a step that threw: the first line of its error. */
export function failed(artifact: string, files: string[], error: unknown): Outcome {
  const message = error instanceof Error ? error.message : String(error);
  return { artifact, files, status: "failed", detail: message.split("\n")[0] };
}
