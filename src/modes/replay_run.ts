/**
 * `mcp-cassette replay` with the test-suite extras: `--new-episodes` (send
 * misses to the live server and append them) and `--report` (tell the
 * library what happened). Plain replay stays in src/commands/replay.ts.
 *
 * @module
 */
import type { OptionValues } from "../cli/command.ts";
import { flag, stringOption } from "../cli/command.ts";
import { printErr } from "../cli/output.ts";
import { loadCassette } from "../cassette/reader.ts";
import type { CassetteHeader } from "../cassette/format.ts";
import { UsageError } from "../errors.ts";
import { ReplayEngine } from "../replay/engine.ts";
import type { ReplayOptions } from "../replay/engine.ts";
import type { Redactor } from "../redact/redactor.ts";
import type { ReplayReport } from "../replay/report.ts";
import { serveStdio } from "../replay/stdio.ts";
import { runtime } from "../runtime/mod.ts";
import { openNewEpisodes } from "./new_episodes.ts";
import type { NewEpisodes } from "./new_episodes.ts";
import { RunReporter } from "./run_report.ts";

/** What the replay command lends this mode (it keeps the flags' meaning). */
export interface ReplayCommandParts {
  replayOptions: (
    values: OptionValues,
    log: (line: string) => void,
    header?: CassetteHeader,
  ) => Promise<ReplayOptions>;
  recordingRedactor: (
    values: OptionValues,
    header?: CassetteHeader,
  ) => Promise<Redactor | undefined>;
  finishReport: (report: ReplayReport, values: OptionValues, quiet: boolean) => number;
}

/** Serves `cassette` on stdio with the extras; resolves with the exit code. */
export async function replayNewEpisodes(
  cassette: string,
  command: string[],
  values: OptionValues,
  { replayOptions, recordingRedactor, finishReport }: ReplayCommandParts,
): Promise<number> {
  const appending = flag(values, "new-episodes");
  if (appending && command.length === 0) {
    throw new UsageError("replay --new-episodes needs the live server command after --");
  }
  if (!appending && command.length > 0) {
    throw new UsageError("replay takes a server command after -- only with --new-episodes");
  }
  if (stringOption(values, "listen")) {
    throw new UsageError("--new-episodes and --run-log work over stdio only, not with --listen");
  }
  const quiet = flag(values, "quiet");
  const log = quiet ? () => {} : (line: string) => printErr(`mcp-cassette: ${line}`);
  const reporter = new RunReporter(stringOption(values, "run-log"));
  const action = appending ? "replay-append" : "replay";
  const loaded = await loadCassette(cassette);
  let episodes: NewEpisodes | undefined;
  if (appending) {
    // What the live server adds is scrubbed by the rules the recording was.
    const redactor = await recordingRedactor(values, loaded.header);
    episodes = await openNewEpisodes({
      cassette,
      command,
      group: stringOption(values, "group"),
      force: false,
      log,
      redactor,
    });
  }
  let engine: ReplayEngine | undefined;
  const reportFile = stringOption(values, "report");
  const writeReport = async (report: ReplayReport) => {
    if (reportFile) await runtime.writeTextFile(reportFile, JSON.stringify(report, null, 2) + "\n");
  };
  // A client that stops the replay with a signal (the Java SDK does) still gets its report.
  const stops = (["SIGINT", "SIGTERM"] as const).map((signal) =>
    runtime.onSignal(signal, () => {
      const code = signal === "SIGINT" ? 130 : 143;
      const report = engine?.finish();
      void (async () => {
        if (report) {
          await writeReport(report).catch(() => {});
          reporter.end(action, code, report, episodes?.appended);
        }
        await episodes?.close();
      })().finally(() => runtime.exit(code));
    })
  );
  try {
    reporter.start(action);
    const base = await replayOptions(values, log, loaded.header);
    engine = new ReplayEngine(loaded, episodes ? episodes.extend(base) : base);
    const report = await serveStdio(engine, { input: runtime.stdin, output: runtime.stdout, log });
    await writeReport(report);
    return reporter.end(action, finishReport(report, values, quiet), report, episodes?.appended);
  } finally {
    stops.forEach((stop) => stop());
    await episodes?.close();
  }
}
