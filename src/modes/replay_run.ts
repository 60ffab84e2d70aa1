/**
 * Replay with the test-suite extras: send misses to the live server and
 * append them (new episodes), and tell the library what happened (a run log,
 * a report file). src/commands/replay.ts turns `--new-episodes`, `--run-log`
 * and `--report` into {@linkcode ReplayRunOptions}; plain replay stays there.
 *
 * @module
 */
import { loadCassette, replayReading, streamCassette } from "../cassette/reader.ts";
import type { CassetteHeader } from "../cassette/format.ts";
import { ReplayEngine } from "../replay/engine.ts";
import type { ReplayOptions } from "../replay/engine.ts";
import type { Redactor } from "../redact/redactor.ts";
import type { ReplayReport } from "../replay/report.ts";
import { serveStdio } from "../replay/stdio.ts";
import { runtime } from "../runtime/mod.ts";
import { openNewEpisodes, openSpy } from "./new_episodes.ts";
import { checkLiveUrl } from "./live_http.ts";
import type { NewEpisodes } from "./new_episodes.ts";
import { RunReporter } from "./run_report.ts";
import { writeFileSafely } from "../files/safe_write.ts";

/**
 * A stdio replay with the extras, as library options: the CLI turns its
 * flags into these, so this layer never sees the command line.
 */
export interface ReplayRunOptions {
  /** The cassette file to replay (and append to, with `liveServer`). */
  cassette: string;
  /** The live server's command: misses go to it and are appended. Absent: plain replay. */
  liveServer?: string[];
  /** The live server's URL (Streamable HTTP), in place of `liveServer`'s command. */
  liveUrl?: string;
  /** Spy mode: misses go to the live server and nothing is written to the cassette. */
  spy?: boolean;
  /** The recording this run belongs to (set by the library). */
  group?: string;
  /** Appends what the run did, as JSON lines, to this file. */
  runLog?: string;
  /** Also writes the end-of-session report as JSON to this file. */
  reportFile?: string;
  /** Where progress lines go (already prefixed and filtered by the caller). */
  log: (line: string) => void;
  /** The engine options for this cassette's header. */
  replayOptions: (header?: CassetteHeader) => Promise<ReplayOptions>;
  /** The redactor the recording was made with, for what the live server adds. */
  recordingRedactor: (header?: CassetteHeader) => Promise<Redactor | undefined>;
  /** Prints the report as the caller wants it and picks the exit code. */
  finishReport: (report: ReplayReport) => number;
  /** Runs once the session is over and its report written (`--learn-ignores`). */
  afterSession?: (report: ReplayReport) => Promise<void>;
  /**
   * `--control` (with `runLog`, not appending): the controls on a side
   * channel of this launch's own, its address on the run log's `start` line,
   * and what the library's control asked of new launches applied (./steer.ts).
   */
  control?: boolean;
}

/** Serves the cassette on stdio with the extras; resolves with the exit code. */
export async function replayNewEpisodes(options: ReplayRunOptions): Promise<number> {
  const { log, liveUrl } = options;
  if (liveUrl !== undefined) checkLiveUrl(liveUrl, "--url");
  // A live server over HTTP has no command: an empty one stands for it.
  const liveServer = options.liveServer ?? (liveUrl === undefined ? undefined : []);
  const live = { ...options, liveServer };
  const reporter = new RunReporter(options.runLog);
  const appending = liveServer !== undefined && !options.spy;
  const action = appending ? "replay-append" : "replay";
  if (!options.control || !options.runLog || appending) return await replayRun(live, reporter);
  const { steerLaunch } = await import("./" + "steer.ts") as typeof import("./steer.ts");
  const steered = await steerLaunch(options.runLog, reporter, action, log);
  try {
    const cassette = steered.cassette ?? options.cassette;
    return await replayRun({ ...live, cassette }, reporter, steered.serve);
  } finally {
    await steered.close();
  }
}

/** Serves the replay; `steered`, when the launch has a side channel, is handed its engine. */
async function replayRun(
  options: ReplayRunOptions,
  reporter: RunReporter,
  steered?: (engine: ReplayEngine) => Promise<void>,
): Promise<number> {
  const { cassette, liveServer, liveUrl, log } = options;
  const appending = liveServer !== undefined && !options.spy;
  const action = appending ? "replay-append" : "replay";
  // Served while it is read, unless misses are appended to it (docs/replay.md "Start-up").
  const loaded = appending
    ? await loadCassette(cassette)
    : await streamCassette(cassette, (await replayReading(cassette)).stream);
  let episodes: NewEpisodes | undefined;
  if (liveServer && !appending) {
    episodes = openSpy({ cassette, command: liveServer, url: liveUrl, log });
  }
  if (liveServer && appending) {
    // What the live server adds is scrubbed by the rules the recording was.
    const redactor = await options.recordingRedactor(loaded.header);
    episodes = await openNewEpisodes({
      cassette,
      command: liveServer,
      url: liveUrl,
      group: options.group,
      force: false,
      log,
      redactor,
    });
  }
  let engine: ReplayEngine | undefined;
  const writeReport = async (report: ReplayReport) => {
    if (!options.reportFile) return;
    await writeFileSafely(options.reportFile, JSON.stringify(report, null, 2) + "\n", {
      what: "the report",
    });
  };
  // A client that stops the replay with a signal (the Java SDK does) still gets its report.
  const stops = (["SIGINT", "SIGTERM"] as const).map((signal) =>
    runtime.onSignal(signal, () => {
      const code = signal === "SIGINT" ? 130 : 143;
      const finished = engine?.finished();
      void (async () => {
        const report = await finished?.catch(() => undefined);
        if (report) {
          await writeReport(report).catch(() => {});
          reporter.end(action, code, report, episodes?.appended);
        }
        await episodes?.close();
      })().finally(() => runtime.exit(code));
    })
  );
  try {
    if (!steered) reporter.start(action);
    const base = await options.replayOptions(loaded.header);
    const extended = episodes ? episodes.extend(base) : base;
    engine = "entries" in loaded
      ? new ReplayEngine(loaded, extended)
      : await ReplayEngine.streaming(loaded, extended);
    await steered?.(engine);
    const report = await serveStdio(engine, { input: runtime.stdin, output: runtime.stdout, log });
    if (episodes && episodes.answeredLive.length > 0) report.live = [...episodes.answeredLive];
    await writeReport(report);
    await options.afterSession?.(report);
    return reporter.end(action, options.finishReport(report), report, episodes?.appended);
  } finally {
    stops.forEach((stop) => stop());
    await episodes?.close();
  }
}
