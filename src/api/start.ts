/**
 * Record, replay and check from code: {@linkcode startCassette} decides
 * from the record mode what a test gets (a recorder or a replay), returns
 * what to hand the client under test, and {@linkcode CassetteServer.finish}
 * says how it went.
 *
 * @module
 */
import path from "node:path";
import { loadCassette } from "../cassette/reader.ts";
import { UsageError } from "../errors.ts";
import type { MissReport } from "../errors.ts";
import { ReplayEngine } from "../replay/engine.ts";
import { serveHttp } from "../replay/http.ts";
import type { ReplayReport } from "../replay/report.ts";
import { runtime } from "../runtime/mod.ts";
import { actionFor, resolveRecordMode } from "../modes/mode.ts";
import type { ModeAction, RecordMode } from "../modes/mode.ts";
import { checkCassetteFolder } from "../modes/paths.ts";
import { readRunReport } from "../modes/run_report.ts";
import type { RunAction } from "../modes/run_report.ts";
import { checkReport } from "./verdict.ts";
import { replayFlags } from "./replay_flags.ts";
import type { ReplayFlags } from "./replay_flags.ts";
import { beingWritten } from "../claim/claim.ts";

/** Options of {@linkcode startCassette}. */
export interface CassetteOptions {
  /** The cassette file. Its folder must exist. */
  path: string;
  /** `once` (default), `none`, `all` or `new_episodes`; `MCP_CASSETTE_MODE` wins over this. */
  mode?: RecordMode | string;
  /** The live server's command line: needed whenever the mode records. */
  server?: string[];
  /** `stdio` (default): a command to launch; `http`: a URL of an in-process HTTP replay. */
  transport?: "stdio" | "http";
  /** Options of the stdio replay (`--strict`, `--faults`, pacing…), checked here. */
  replay?: ReplayFlags;
  /** More `replay` flags as strings, after those `replay` gives, e.g. `["--strict"]`. */
  replayArgs?: string[];
  /** How to start mcp-cassette itself (default: this same build, via `runtime.selfCommand()`). */
  cli?: string[];
}

/** What one launch of the recorder or replay did. */
export interface LaunchSummary {
  action: RunAction;
  /** Its exit code; undefined if it had not finished when `finish` gave up waiting. */
  code?: number;
  /** Exchanges appended by `new_episodes`. */
  appended?: number;
}

/** What {@linkcode CassetteServer.finish} found. */
export interface CassetteResult {
  mode: RecordMode;
  /** What the mode chose when the server started. */
  action: ModeAction;
  /** One entry per launch of the command by the client (stdio), or one for HTTP. */
  launches: LaunchSummary[];
  misses: MissReport[];
  unplayed: string[];
  appended: number;
}

/** A recorder or replay waiting for the client under test. */
export interface CassetteServer {
  readonly path: string;
  readonly mode: RecordMode;
  readonly action: ModeAction;
  /** For a stdio client: the program to start... */
  readonly command: string;
  /** ...and its arguments. */
  readonly args: string[];
  /** For an HTTP client (`transport: "http"`): the URL. */
  readonly url?: string;
  /**
   * Waits for the launches to finish and checks them: throws
   * {@linkcode ReplayMissError} on replay misses and, with
   * `failOnUnplayed`, on recorded requests never asked for.
   */
  finish(options?: FinishOptions): Promise<CassetteResult>;
}

/** Options of {@linkcode CassetteServer.finish}. */
export interface FinishOptions {
  /** Also fail on recorded requests never asked for. */
  failOnUnplayed?: boolean;
  /**
   * How long to wait for launches still running to end (default 10 000 ms);
   * those still running then are ended (SIGTERM) and have no `code`.
   */
  waitMs?: number;
  /**
   * The test failed: end launches the client left running at once (SIGTERM,
   * which a recorder answers by keeping what it recorded) instead of waiting
   * for the client to close them. What they saw is then unknown, which after
   * a failure no longer matters; the test helpers finish a failed test so.
   */
  stop?: boolean;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function recordingId(): string {
  return `${runtime.pid()}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
}

/**
 * Starts what the record mode asks for on `options.path` and tells how to
 * reach it. Mode `once` records a missing cassette and replays an existing
 * one; parallel test processes on one missing cassette record it once (the
 * others wait for its claim, then replay).
 *
 * @example
 * ```ts
 * import { Client } from "@modelcontextprotocol/sdk/client/index.js";
 * import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
 * import { startCassette } from "@mcp-cassette/mcp-cassette";
 *
 * const server = await startCassette({
 *   path: "tests/cassettes/tools.cassette.jsonl",
 *   server: ["npx", "-y", "@modelcontextprotocol/server-everything"],
 * });
 * const client = new Client({ name: "test", version: "1.0.0" });
 * await client.connect(new StdioClientTransport({ command: server.command, args: server.args }));
 * console.log(await client.listTools());
 * await client.close();
 * await server.finish(); // throws ReplayMissError on a request the cassette cannot answer
 * ```
 */
export async function startCassette(options: CassetteOptions): Promise<CassetteServer> {
  const mode = resolveRecordMode(options.mode);
  const cassette = path.resolve(runtime.cwd(), options.path);
  await checkCassetteFolder(cassette);
  const info = await runtime.stat(cassette);
  if (info?.isDirectory) throw new UsageError(`The cassette ${cassette} is a directory`);
  let action = actionFor(mode, info !== undefined, cassette);
  // A cassette with a live claim is still being written (a fresh recording is
  // written in place): go through the recorder, which waits, then replays.
  if (action === "replay" && mode === "once" && await beingWritten(cassette)) action = "record";
  const server = options.server ?? [];
  const replayExtra = [...replayFlags(options.replay ?? {}), ...(options.replayArgs ?? [])];
  if (action !== "replay" && server.length === 0) {
    throw new UsageError(
      `Record mode "${mode}" needs to ${
        action === "record" ? "record" : "append to"
      } ${cassette}: pass the live server command as \`server\``,
    );
  }
  if (options.transport === "http") {
    if (replayExtra.length > 0) {
      throw new UsageError(
        "`replay` and `replayArgs` set flags of the stdio replay; the in-process HTTP replay takes none",
      );
    }
    return await startHttp(cassette, mode, action);
  }
  const logDir = await runtime.makeTempDir("mcp-cassette-run-");
  const runLog = path.join(logDir, "run.jsonl");
  const group = recordingId();
  const cli = options.cli ?? runtime.selfCommand();
  const tail = action === "record"
    ? [
      "record",
      "-o",
      cassette,
      "--mode",
      mode,
      "--group",
      group,
      "--run-log",
      runLog,
      "--",
      ...server,
    ]
    : action === "replay-append"
    ? [
      "replay",
      cassette,
      "--new-episodes",
      "--group",
      group,
      "--run-log",
      runLog,
      ...replayExtra,
      "--",
      ...server,
    ]
    : ["replay", cassette, "--run-log", runLog, ...replayExtra];
  const line = [...cli, ...tail];
  let finished: Promise<CassetteResult> | undefined;
  return {
    path: cassette,
    mode,
    action,
    command: line[0],
    args: line.slice(1),
    finish(finishOptions = {}) {
      finished ??= collect(runLog, mode, action, finishOptions);
      return finished.then((result) => {
        checkReport(result.misses, result.unplayed, finishOptions.failOnUnplayed ?? false);
        return result;
      });
    },
  };
}

/**
 * Waits until every launch that started has ended (or `waitMs` passed, after
 * which it ends them), then sums them up. A launch whose process is gone
 * counts as ended even without its `end` line (killed, or stopped here): it
 * will never write one.
 */
async function collect(
  runLog: string,
  mode: RecordMode,
  action: ModeAction,
  options: FinishOptions,
): Promise<CassetteResult> {
  const deadline = Date.now() + (options.waitMs ?? 10_000);
  let lines = await readRunReport(runLog);
  const open = () => {
    const ended = new Set(lines.filter((line) => line.event === "end").map((line) => line.pid));
    return lines.filter((line) =>
      line.event === "start" && !ended.has(line.pid) && runtime.isProcessAlive(line.pid)
    );
  };
  if (options.stop) { for (const launch of open()) runtime.kill(launch.pid, "SIGTERM"); }
  while (open().length > 0 && Date.now() < deadline) {
    await sleep(25);
    lines = await readRunReport(runLog);
  }
  // Nothing outlives finish(): a launch still running now would only hold the client's runner open.
  for (const launch of open()) runtime.kill(launch.pid, "SIGTERM");
  await runtime.remove(runLog).catch(() => {});
  const result: CassetteResult = {
    mode,
    action,
    launches: [],
    misses: [],
    unplayed: [],
    appended: 0,
  };
  for (const start of lines.filter((line) => line.event === "start")) {
    const end = lines.find((line) => line.event === "end" && line.pid === start.pid);
    result.launches.push({
      action: start.action,
      ...(end?.code !== undefined ? { code: end.code } : {}),
      ...(end?.appended ? { appended: end.appended } : {}),
    });
    if (end?.report) addReport(result, end.report);
    result.appended += end?.appended ?? 0;
  }
  return result;
}

function addReport(result: CassetteResult, report: ReplayReport): void {
  result.misses.push(...report.misses);
  result.unplayed.push(...report.unplayed);
}

/** An in-process HTTP replay, when this build has one. */
async function startHttp(
  cassette: string,
  mode: RecordMode,
  action: ModeAction,
): Promise<CassetteServer> {
  if (action !== "replay") {
    throw new UsageError(
      `Record mode "${mode}" would write ${cassette}: the HTTP form only replays; record over stdio`,
    );
  }
  const engine = new ReplayEngine(await loadCassette(cassette));
  let stop: () => void = () => {};
  const until = new Promise<void>((resolve) => (stop = resolve));
  let listening: (url: string) => void = () => {};
  const url = new Promise<string>((resolve) => (listening = resolve));
  const served = serveHttp(engine, { listen: "127.0.0.1:0", onListening: listening, until });
  const first = await Promise.race([url, served.then(() => undefined, (error: Error) => error)]);
  if (typeof first !== "string") {
    throw new UsageError(
      `HTTP replay is not available in this build (${
        first?.message ?? "it stopped at once"
      }); use the stdio form`,
    );
  }
  let finished: Promise<CassetteResult> | undefined;
  return {
    path: cassette,
    mode,
    action,
    command: "",
    args: [],
    url: first,
    finish(finishOptions = {}) {
      finished ??= (async () => {
        stop();
        const report = await served;
        const result: CassetteResult = {
          mode,
          action,
          launches: [{ action: "replay", code: 0 }],
          misses: [],
          unplayed: [],
          appended: 0,
        };
        addReport(result, report);
        return result;
      })();
      return finished.then((result) => {
        checkReport(result.misses, result.unplayed, finishOptions.failOnUnplayed ?? false);
        return result;
      });
    },
  };
}
