/**
 * `mcp-cassette replay`: serve a cassette as an MCP server.
 *
 * @module
 */
import { REPLAY_OPTIONS } from "../options/replay.ts";
import type { Command, OptionValues } from "../cli/command.ts";
import { flag, positiveInt, stringList, stringOption } from "../cli/command.ts";
import type { CassetteHeader } from "../cassette/format.ts";
import { colorEnabled, paint, printErr } from "../cli/output.ts";
import { loadCassette, replayReading, streamCassette } from "../cassette/reader.ts";
import { ExitCode, UsageError } from "../errors/errors.ts";
import { parsePacing } from "../faults/pacing.ts";
import { ReplayEngine } from "../replay/engine.ts";
import type { ReplayOptions } from "../replay/engine.ts";
import { formatReport } from "../replay/report.ts";
import type { ReplayReport } from "../replay/report.ts";
import { serveStdio } from "../replay/stdio.ts";
import { runtime } from "../runtime/mod.ts";
import { parseIgnorePaths } from "../match/ignore_paths.ts";
import type { IgnorePath } from "../match/ignore_paths.ts";
import type { HttpServeOptions } from "../replay/http/options.ts";
import { checkExpiry, learnFrom, liveFlags, spying } from "./replay_upkeep.ts";
import { recordingRedactor, requestRewriter } from "./replay_redaction.ts";
import { writeFileSafely } from "../files/safe_write.ts";

/** The options turned into library values, loaded only by an HTTP replay. */
type SharedOptions = typeof import("./shared_options.ts");

/** The `replay` command. */
export const command: Command = {
  name: "replay",
  summary: "Serve a cassette as an MCP server (stdio, or HTTP with --listen)",
  usage:
    "replay CASSETTE [--listen HOST:PORT] [options] | replay CASSETTE --new-episodes -- <server command...> | replay CASSETTE --on-miss live [--append] (-- <server command...> | --url URL)",
  description: [
    "Put this command in the client's config in place of the server. It answers from the cassette,",
    "with no network and no server process. Misses get a JSON-RPC error naming the closest recording",
    "and the process exits 3 at the end of the session.",
  ].join("\n"),
  options: REPLAY_OPTIONS,
  takesRest: true,
  async run({ values, positionals, rest }) {
    if (positionals.length !== 1) throw new UsageError("replay needs exactly one CASSETTE");
    if (
      flag(values, "new-episodes") || rest.length > 0 || stringOption(values, "run-log") ||
      stringOption(values, "url") !== undefined || spying(values)
    ) {
      return await replayWithExtras(positionals[0], rest, values);
    }
    const quiet = flag(values, "quiet");
    const log = quiet ? () => {} : (line: string) => printErr(`mcp-cassette: ${missPaint(line)}`);
    const listen = stringOption(values, "listen");
    // Before anything loads: a signal listener takes effect a moment after it is added,
    // and a client may stop its server right after the first answer.
    const signals = listen ? undefined : reportOnSignal(stringOption(values, "report"));
    try {
      // Over stdio the replay serves while it reads the file (docs/replay.md "Start-up").
      const engine = listen
        ? await loadedEngine(positionals[0], values, log)
        : await streamingEngine(positionals[0], values, log);
      if (!listen && stringOption(values, "token") !== undefined) {
        throw new UsageError("--token works with --listen only (a stdio replay has no port)");
      }
      if (flag(values, "control") && !listen) {
        throw new UsageError(
          "--control needs --listen: over stdio the controls are the library's (ReplayTransport.control, startCassette's control)",
        );
      }
      const report = listen
        ? await serveListening(engine, listen, positionals[0], values, log)
        : await serveStdioReporting(engine, signals!, log);
      await (signals ? signals.write(report) : writeReport(stringOption(values, "report"), report));
      await learnFrom(report, values);
      return finishReport(report, values, quiet);
    } finally {
      // Only now: a signal that ended the session (it ends a blocking read as
      // if the input had closed) may not have reached its listener yet, and
      // with none left the runtime ends the process at once.
      signals?.stop();
    }
  },
};

/** `--listen`: Streamable HTTP, with the control endpoint when `--control` asks for it. */
async function serveListening(
  engine: ReplayEngine,
  listen: string,
  cassette: string,
  values: OptionValues,
  log: (line: string) => void,
): Promise<ReplayReport> {
  // The modules replay loads only when a run needs them (HTTP, new episodes,
  // redaction, faults) are named by a sum of two literals, not one literal:
  // Deno loads and prepares the graph of every literal `import("…")` when the
  // importing module loads (about 40 modules replay never runs, as
  // src/cli/registry.ts explains), while Bun folds the sum back into one
  // literal and bundles the module into the binary (a name held in a const
  // is not folded here, since this module is loaded lazily).
  const { serveHttp } = await import(
    "../" + "replay/http.ts"
  ) as typeof import("../replay/http.ts");
  const options: HttpServeOptions = {
    listen,
    token: (await import("../" + "commands/shared_options.ts") as SharedOptions)
      .tokenFromOptions(values),
    maxStreams: positiveInt(stringOption(values, "max-streams"), "max-streams", 1024),
    onListening: (url) => printErr(`mcp-cassette: replaying ${cassette} at ${url}`),
    log,
  };
  if (flag(values, "control")) {
    const { ReplayControl } = await import(
      "../" + "replay/control.ts"
    ) as typeof import("../replay/control.ts");
    const { controlOptions } = await import(
      "../" + "replay/http/control.ts"
    ) as typeof import("../replay/http/control.ts");
    const open = (path: string) => loadedEngine(path, values, log);
    Object.assign(options, controlOptions(new ReplayControl(engine, open)));
  }
  return await serveHttp(engine, options);
}

async function writeReport(file: string | undefined, report: ReplayReport): Promise<void> {
  if (file) {
    await writeFileSafely(file, JSON.stringify(report, null, 2) + "\n", { what: "the report" });
  }
}

/** The signal handlers of a stdio replay, waiting for the engine whose report they write. */
interface SignalReport {
  /** Set once the engine exists; a signal before then exits without a report. */
  engine?: ReplayEngine;
  /** Set by a signal: the session's own end must not write over its report meanwhile. */
  stopping?: Promise<never>;
  /** Writes the report once, whether the session's end or a signal asks first. */
  write(report: ReplayReport): Promise<void>;
  stop(): void;
}

/**
 * A signal that ends the session (a client stopping its server, or going
 * down with it) still writes the report before the exit.
 */
function reportOnSignal(reportFile: string | undefined): SignalReport {
  let writing: Promise<void> | undefined;
  const state: SignalReport = {
    write: (report) => writing ??= writeReport(reportFile, report),
    stop: () => stops.forEach((stop) => stop()),
  };
  const stops = (["SIGINT", "SIGTERM"] as const).map((signal) =>
    runtime.onSignal(signal, () => {
      if (state.stopping) return;
      state.stopping = new Promise<never>(() => {});
      const code = signal === "SIGINT" ? 130 : 143;
      const engine = state.engine;
      // The report covers the whole recording: a streaming engine reads the rest first.
      const written = writing ??
        (engine
          ? engine.loaded.then(() => engine.finished()).then((report) => state.write(report))
          : Promise.resolve());
      void written.catch(() => {}).finally(() => runtime.exit(code));
    })
  );
  return state;
}

/** Serves on stdio, with the signal handlers {@linkcode reportOnSignal} installed (the caller stops them). */
async function serveStdioReporting(
  engine: ReplayEngine,
  signals: SignalReport,
  log: (line: string) => void,
): Promise<ReplayReport> {
  signals.engine = engine;
  const report = await serveStdio(engine, {
    input: runtime.stdin,
    output: runtime.stdout,
    log,
    blockWhenIdle: true,
  });
  if (signals.stopping) await signals.stopping;
  return report;
}

async function loadedEngine(path: string, values: OptionValues, log: (line: string) => void) {
  const cassette = await loadCassette(path);
  return new ReplayEngine(cassette, await replayOptions(values, log, cassette.header, path));
}

async function streamingEngine(path: string, values: OptionValues, log: (line: string) => void) {
  const reading = await replayReading(path);
  if (reading.oneRead) return await loadedEngine(path, values, log);
  const stream = await streamCassette(path, reading.stream);
  return await ReplayEngine.streaming(
    stream,
    await replayOptions(values, log, stream.header, path),
  );
}

/** `--new-episodes`, `--run-log`: checks the flags go together, then runs the library's mode. */
async function replayWithExtras(
  cassette: string,
  command: string[],
  values: OptionValues,
): Promise<number> {
  const { spy, appending, url } = liveFlags(values, command);
  // Over stdio, the library's side channel: with --run-log, not appending (else unused, as before).
  const control = flag(values, "control");
  const quiet = flag(values, "quiet");
  const log = quiet ? () => {} : (line: string) => printErr(`mcp-cassette: ${line}`);
  const listen = stringOption(values, "listen");
  if (listen) return await spyListening(cassette, listen, { command, url }, values, log);
  const { replayNewEpisodes } = await import(
    "../" + "modes/replay_run.ts"
  ) as typeof import("../modes/replay_run.ts");
  return await replayNewEpisodes({
    cassette,
    ...(appending || spy ? (url === undefined ? { liveServer: command } : { liveUrl: url }) : {}),
    spy: spy && !appending,
    group: stringOption(values, "group"),
    runLog: stringOption(values, "run-log"),
    reportFile: stringOption(values, "report"),
    log,
    replayOptions: (header) => replayOptions(values, log, header, cassette),
    recordingRedactor: (header) => recordingRedactor(values, header, cassette),
    finishReport: (report) => finishReport(report, values, quiet),
    afterSession: (report) => learnFrom(report, values),
    control,
  });
}

/**
 * `--listen` with `--on-miss live`: the HTTP replay, whose misses (from any
 * of its sessions) go to one live server, started on the first miss and
 * given the handshake of the session that missed; nothing is written.
 */
async function spyListening(
  cassette: string,
  listen: string,
  live: { command: string[]; url?: string },
  values: OptionValues,
  log: (line: string) => void,
): Promise<number> {
  const { openSpy } = await import(
    "../" + "modes/new_episodes.ts"
  ) as typeof import("../modes/new_episodes.ts");
  const { checkLiveUrl } = await import(
    "../" + "modes/live_http.ts"
  ) as typeof import("../modes/live_http.ts");
  if (live.url !== undefined) checkLiveUrl(live.url, "--url");
  const loaded = await loadCassette(cassette);
  const base = await replayOptions(values, log, loaded.header, cassette);
  const episodes = openSpy({ cassette, command: live.command, url: live.url, log });
  let report: ReplayReport;
  try {
    const engine = new ReplayEngine(loaded, episodes.extend(base));
    report = await serveListening(engine, listen, cassette, values, log);
    if (episodes.answeredLive.length > 0) report.live = [...episodes.answeredLive];
  } finally {
    await episodes.close();
  }
  await writeReport(stringOption(values, "report"), report);
  await learnFrom(report, values);
  return finishReport(report, values, flag(values, "quiet"));
}

/** The `--match-ignore` paths; one that does not parse is a usage error naming the flag. */
function ignorePathsOf(values: OptionValues): IgnorePath[] {
  return parseIgnorePaths(stringList(values, "match-ignore"), "--match-ignore");
}

/**
 * Turns the flags into engine options for replaying `cassette`; with
 * `--max-age`, a cassette older than that warns or, `--on-expired fail`,
 * stops here (exit 8).
 */
export async function replayOptions(
  values: OptionValues,
  log: (line: string) => void,
  header?: CassetteHeader,
  cassette = "the cassette",
): Promise<ReplayOptions> {
  checkExpiry(values, log, header, cassette);
  const timeout = Number(stringOption(values, "answer-timeout-ms") ?? "10000");
  if (!Number.isFinite(timeout) || timeout <= 0) {
    throw new UsageError(
      `--answer-timeout-ms must be a positive number, not ${
        stringOption(values, "answer-timeout-ms")
      }`,
    );
  }
  const faultsFile = stringOption(values, "faults");
  const seed = stringOption(values, "seed");
  const faults = faultsFile ? await loadFaults(faultsFile, seed) : undefined;
  const rewriteRequest = await requestRewriter(values, header, cassette);
  return {
    strict: flag(values, "strict"),
    match: flag(values, "lenient") ? "lenient" : "exact",
    fingerprint: { ignorePaths: ignorePathsOf(values) },
    answerTimeoutMs: timeout,
    faults,
    pacing: parsePacing({
      pace: stringOption(values, "pace"),
      paceScale: stringOption(values, "pace-scale"),
      paceCapMs: stringOption(values, "pace-cap-ms"),
    }),
    rewriteRequest,
    log,
  };
}

/**
 * Loads a fault overlay. The fault, HTTP, redaction and new-episodes modules
 * load only when a run needs them: replay starts in every client session, and
 * the JSONC parser alone cost it about 25 ms on Deno.
 */
async function loadFaults(file: string, seed: string | undefined) {
  const { createFaultInjector, loadFaultOverlay, parseFaultSeed } = await import(
    "../" + "faults/mod.ts"
  );
  return createFaultInjector(
    await loadFaultOverlay(file),
    seed === undefined ? {} : { seed: parseFaultSeed(seed) },
  );
}

/** A miss line in red when stderr takes colour; other lines as they are. */
function missPaint(line: string): string {
  return line.startsWith("miss") ? paint(line, "red", colorEnabled("stderr")) : line;
}

/** Prints the end-of-session report and picks the exit code. */
export function finishReport(report: ReplayReport, values: OptionValues, quiet: boolean): number {
  // Not quiet, the events were printed as they happened; quiet, only misses print, once.
  const lines = quiet ? quietMisses(report) : formatReport(report, true);
  for (const line of lines) {
    printErr(`mcp-cassette: ${missPaint(line)}`);
  }
  if (report.misses.length > 0) return ExitCode.ReplayMiss;
  if (flag(values, "fail-on-unplayed") && report.unplayed.length > 0) return ExitCode.ReplayMiss;
  if (flag(values, "strict") && (report.divergences.length > 0 || report.timeouts.length > 0)) {
    return ExitCode.Failed;
  }
  return ExitCode.Ok;
}

/** Quiet, the misses are all that prints: the first few, then how many more (a 1,000-member batch of them is not 1,000 lines). */
function quietMisses(report: ReplayReport): string[] {
  const misses = formatReport(report).filter((text) => text.startsWith("miss"));
  if (misses.length <= QUIET_MISSES) return misses;
  const more = misses.length - QUIET_MISSES;
  return [...misses.slice(0, QUIET_MISSES), `miss: ... and ${more} more (all of them in --report)`];
}

/** How many misses `-q` prints one by one. */
const QUIET_MISSES = 10;
