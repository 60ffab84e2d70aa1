/**
 * The README's command for a checkout (`npm run install-cli`, which runs
 * scripts/install_cli.ts) puts an `mcp-cassette` on PATH that works from any
 * folder: started from `/` with only its folder and the system's on PATH,
 * as a client starts it, it replays over HTTP, and one SIGTERM to the
 * process the client started stops the whole replay (nothing keeps the port).
 *
 * CI passes the binary it built in MCP_CASSETTE_BINARY (installed with
 * --from); otherwise the script compiles one.
 */
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { connect } from "node:net";
import path from "node:path";
import process from "node:process";
import { DENO, ROOT, run, skipTest, tempDir } from "../helpers.ts";
import { startBackground } from "../http/http_helpers.ts";
import { overridesInName } from "./_runtimes.ts";

const work = tempDir("mcp-cassette-install-");
after(() => rmSync(work, { recursive: true, force: true }));

/** Every process below `pid`, read from /proc (Linux). */
function descendants(pid: number): number[] {
  const direct = children(pid);
  return [...direct, ...direct.flatMap(descendants)];
}

/** Every process whose parent is `pid`. */
function children(pid: number): number[] {
  return readdirSync("/proc").filter((name) => /^\d+$/.test(name)).filter((name) => {
    try {
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]) === pid;
    } catch {
      return false;
    }
  }).map(Number);
}

function alive(pid: number): boolean {
  return existsSync(`/proc/${pid}`);
}

function refused(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname);
    socket.once("connect", () => {
      socket.destroy();
      resolve(false);
    });
    socket.once("error", () => resolve(true));
  });
}

test(`install-cli${overridesInName("MCP_CASSETTE_BINARY")}: mcp-cassette from any folder; SIGTERM stops it whole`, async (t) => {
  if (process.platform !== "linux") return skipTest(t, "reads the process tree from /proc");
  const bin = path.join(work, "bin");
  const given = process.env.MCP_CASSETTE_BINARY;
  const from = given ? ["--from", path.resolve(ROOT, given)] : [];
  const installed = await run(
    [
      DENO,
      "run",
      "-A",
      "--no-check",
      path.join(ROOT, "scripts", "install_cli.ts"),
      "--dir",
      bin,
      ...from,
    ],
    { cwd: work, timeoutMs: 300_000 },
  );
  assert.equal(installed.code, 0, installed.stdout + installed.stderr);
  assert.match(installed.stdout, new RegExp(`installed ${path.join(bin, "mcp-cassette")}`));

  const clientPath = `${bin}:/usr/bin:/bin`;
  const version = await run(["mcp-cassette", "--version"], { cwd: "/", env: { PATH: clientPath } });
  assert.equal(version.code, 0, version.stderr);
  assert.match(version.stdout, /^mcp-cassette \d+\.\d+\.\d+/);

  const cassette = path.join(ROOT, "examples", "cassettes", "weather.cassette.jsonl");
  const replay = await startBackground(
    [path.join(bin, "mcp-cassette"), "replay", "--listen", "0", cassette],
    /at (http:\/\/\S+)/,
    { env: { PATH: clientPath }, cwd: "/" },
  );
  const pid = replay.child.pid!;
  const tree = [pid, ...descendants(pid)];
  await replay.stop("SIGTERM");
  for (const member of tree) {
    assert.equal(alive(member), false, `process ${member} outlived SIGTERM`);
  }
  assert.equal(await refused(replay.found), true, `${replay.found} still answers after SIGTERM`);
});
