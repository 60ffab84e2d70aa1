/**
 * Record, replay and check from code: {@linkcode startCassette} decides
 * from the record mode what a test gets (a recorder or a replay), returns
 * what to hand the client under test, and {@linkcode CassetteServer.finish}
 * says how it went.
 *
 * @module
 */
import path from "node:path";
import { UsageError } from "../errors/errors.ts";
import type { MissReport } from "../errors/errors.ts";
import { serveHttp } from "../replay/http.ts";
import type { ReplayReport } from "../replay/report.ts";
import { emptyJournal } from "../replay/journal.ts";
import { mergeReport } from "./merge_report.ts";
import type { MergedReports } from "./merge_report.ts";
import { runtime } from "../runtime/mod.ts";
import { actionFor, resolveRecordMode } from "../modes/mode.ts";
import type { ModeAction, RecordMode } from "../modes/mode.ts";
import { checkCassetteFolder } from "../modes/paths.ts";
import type { RunAction } from "../modes/run_report.ts";
import { awaitLaunches } from "./launches.ts";
import { checkLaunches, checkReport } from "./verdict.ts";
import { replayFlags } from "./replay_flags.ts";
import type { ReplayFlags } from "./replay_flags.ts";
import { beingWritten } from "../claim/claim.ts";
import type { MatchMode } from "../replay/options.ts";
import { withTestingConfig } from "../config/testing.ts";
import { planExpiry, settleRerecord } from "./expiry.ts";
import { launchArgs, matchArgs, secretArgs, spyMode } from "./launch_args.ts";
import type { OnExpired } from "../modes/expiry.ts";
import { writeFileSafely } from "../files/safe_write.ts";
import { LaunchControl, steeredInProcess } from "./steer.ts";
import type { CassetteControl } from "./steer.ts";

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
  /**
   * `exact` (default): a request whose key was never recorded is a miss, and
   * `finish()` throws. `lenient`: it takes the same tool's next recording,
   * reported in the result's `inexact`.
   */
  match?: MatchMode;
  /** Paths left out of matching, e.g. `params.arguments.request_id` (see `--match-ignore`). */
  matchIgnore?: string[];
  /**
   * `error` (default): a miss is an error. `live` (spy mode): a miss goes to
   * `server`, started on the first miss, and nothing is written; the
   * result's `live` lists what it answered.
   */
  onMiss?: "error" | "live";
  /** Spy mode's live server reached over Streamable HTTP at this URL, in place of `server`. */
  liveUrl?: string;
  /** `record --secret-env`: variables whose values are recorded as `[SECRET:NAME]`. */
  secretEnv?: string[];
  /** Most age of the cassette, e.g. `30d` or `12h` (`replay --max-age`). */
  maxAge?: string;
  /** What an expired cassette does: `warn` (default), `fail` (exit 8), `rerecord` (mode `once`). */
  onExpired?: OnExpired;
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
  /** Why the launch failed, when it did (e.g. a server that answered nothing). */
  error?: string;
}

/** What {@linkcode CassetteServer.finish} found. */
export interface CassetteResult extends MergedReports {
  /** The cassette's absolute path. */
  cassette: string;
  mode: RecordMode;
  /** What the mode chose when the server started. */
  action: ModeAction;
  /** One entry per launch of the command by the client (stdio), or one for HTTP. */
  launches: LaunchSummary[];
  misses: MissReport[];
  /** Requests answered with another request's recording (`match: "lenient"` only). */
  inexact: string[];
  /** Requests answered again after their recordings ran out. */
  repeats: string[];
  /** Requests answered by a recording made after a request this run did not make. */
  outOfOrder: string[];
  unplayed: string[];
  appended: number;
  /** Spy mode (`onMiss: "live"`): the requests the live server answered. */
  live: string[];
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
   * Steers the replay mid-test as `replay --listen --control` does (docs/control.md "In
   * process"); over stdio, every replay launched and (faults, cassette) every launch to come.
   */
  readonly control: CassetteControl;
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
export async function startCassette(given: CassetteOptions): Promise<CassetteServer> {
  // What the test did not pass comes from [testing] in mcp-cassette.toml.
  const { options, recordArgs } = await withTestingConfig(given);
  const mode = resolveRecordMode(options.mode);
  const cassette = path.resolve(runtime.cwd(), options.path);
  await checkCassetteFolder(cassette);
  const info = await runtime.stat(cassette);
  if (info?.isDirectory) throw new UsageError(`The cassette ${cassette} is a directory`);
  let action = actionFor(mode, info !== undefined, cassette);
  // A cassette with a live claim is still being written (a fresh recording is
  // written in place): go through the recorder, which waits, then replays.
  if (action === "replay" && mode === "once" && await beingWritten(cassette)) action = "record";
  const expiry = await planExpiry(cassette, mode, action, options);
  action = expiry.action;
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
    return await startHttp(cassette, mode, action, options);
  }
  const cli = options.cli ?? runtime.selfCommand();
  const replay = [...matchArgs(options), ...replayExtra];
  const output = expiry.output;
  const spy = spyMode(options.onMiss, action, server, options.liveUrl);
  recordArgs.push(...secretArgs(options.secretEnv, action));
  // Made once every check has passed: a start that throws leaves no folder behind.
  const logDir = await runtime.makeTempDir("mcp-cassette-run-");
  // A server never finished (a test that ended first) still takes it away, at exit.
  const forgetAtExit = runtime.removeAtExit(logDir);
  const runLog = path.join(logDir, "run.jsonl");
  const group = recordingId();
  const tail = launchArgs(action, {
    spy,
    cassette: output,
    mode,
    group,
    runLog,
    recordArgs,
    replay,
    server,
    liveUrl: options.liveUrl,
  });
  const line = [...cli, ...tail];
  let finished: Promise<CassetteResult> | undefined;
  return {
    path: cassette,
    mode,
    action,
    command: line[0],
    args: line.slice(1),
    control: new LaunchControl(runLog),
    finish(finishOptions = {}) {
      finished ??= collect(cassette, runLog, mode, action, finishOptions).then(async (result) => {
        forgetAtExit(); // collect removed it
        await settleRerecord(expiry, cassette, result.launches.map((launch) => launch.code));
        return result;
      });
      return finished.then((result) => {
        checkLaunches(result);
        checkReport(result, { match: options.match, failOnUnplayed: finishOptions.failOnUnplayed });
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
  cassette: string,
  runLog: string,
  mode: RecordMode,
  action: ModeAction,
  options: FinishOptions,
): Promise<CassetteResult> {
  // The run log's folder is a temp folder of its own: it goes with the log, whatever happened.
  const removed = () => runtime.remove(path.dirname(runLog)).catch(() => {});
  const lines = await awaitLaunches(runLog, options).finally(removed);
  const result = emptyResult(cassette, mode, action, []);
  for (const start of lines.filter((line) => line.event === "start")) {
    const end = lines.find((line) => line.event === "end" && line.pid === start.pid);
    result.launches.push({
      action: start.action,
      ...(end?.code !== undefined ? { code: end.code } : {}),
      ...(end?.appended ? { appended: end.appended } : {}),
      ...(end?.error ? { error: end.error } : {}),
    });
    if (end?.report) await addReport(result, end.report, String(result.launches.length));
    result.appended += end?.appended ?? 0;
  }
  return result;
}

function emptyResult(
  cassette: string,
  mode: RecordMode,
  action: ModeAction,
  launches: LaunchSummary[],
): CassetteResult {
  return {
    cassette,
    mode,
    action,
    launches,
    misses: [],
    inexact: [],
    repeats: [],
    outOfOrder: [],
    unplayed: [],
    appended: 0,
    live: [],
    journal: emptyJournal(),
    recorded: [],
    tools: [],
  };
}

/**
 * Adds a launch's report to the result and, when `MCP_CASSETTE_REPORT_DIR`
 * names a folder, keeps it there as a file of its own (`prune` reads a
 * whole suite's reports from such a folder).
 */
async function addReport(
  result: CassetteResult,
  report: ReplayReport,
  session?: string,
): Promise<void> {
  mergeReport(result, report, session);
  result.misses.push(...report.misses);
  result.inexact.push(...report.inexact);
  result.repeats.push(...report.repeats);
  result.outOfOrder.push(...(report.outOfOrder ?? []));
  result.unplayed.push(...report.unplayed);
  result.live.push(...(report.live ?? []));
  const folder = runtime.env("MCP_CASSETTE_REPORT_DIR");
  if (!folder) return;
  await runtime.mkdir(folder);
  const name = `${path.basename(result.cassette ?? "cassette")}.${recordingId()}.report.json`;
  const text = JSON.stringify(report, null, 2) + "\n";
  await writeFileSafely(path.join(folder, name), text, { what: "the report" });
}

/** An in-process HTTP replay, when this build has one. */
async function startHttp(
  cassette: string,
  mode: RecordMode,
  action: ModeAction,
  options: CassetteOptions,
): Promise<CassetteServer> {
  if (action !== "replay") {
    throw new UsageError(
      `Record mode "${mode}" would write ${cassette}: the HTTP form only replays; record over stdio`,
    );
  }
  const { engine, control, route } = await steeredInProcess(cassette, options);
  let stop: () => void = () => {};
  const until = new Promise<void>((resolve) => (stop = resolve));
  let listening: (url: string) => void = () => {};
  const url = new Promise<string>((resolve) => (listening = resolve));
  const served = serveHttp(engine, { listen: "127.0.0.1:0", onListening: listening, until, route });
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
    control,
    finish(finishOptions = {}) {
      finished ??= (async () => {
        stop();
        const report = await served;
        const result = emptyResult(cassette, mode, action, [{ action: "replay", code: 0 }]);
        await addReport(result, report);
        return result;
      })();
      return finished.then((result) => {
        checkReport(result, { match: options.match, failOnUnplayed: finishOptions.failOnUnplayed });
        return result;
      });
    },
  };
}
