/**
 * What `mcp-cassette record` does over stdio once claims and modes are in
 * play: check the cassette's folder, take the claim, then record, or (mode
 * `once`, after another recording finished the cassette) replay it.
 *
 * @module
 */
import { loadCassette } from "../cassette/reader.ts";
import { UsageError } from "../errors/errors.ts";
import { ReplayEngine } from "../replay/engine.ts";
import { serveStdio } from "../replay/stdio.ts";
import { formatReport } from "../replay/report.ts";
import { recordStdio } from "../record/stdio.ts";
import { redactCommandLine } from "../redact/mod.ts";
import { CassetteError } from "../errors/errors.ts";
import type { StdioRecordOptions } from "../record/stdio.ts";
import { runtime } from "../runtime/mod.ts";
import { acquireClaim, beingWritten } from "../claim/claim.ts";
import { actionFor, resolveRecordMode } from "./mode.ts";
import type { RecordMode } from "./mode.ts";
import { RunReporter } from "./run_report.ts";
import { openNewEpisodes } from "./new_episodes.ts";
import { checkCassetteFolder } from "./paths.ts";

/** The header `meta` key naming the recording (library session) that wrote a cassette. */
export const RECORDING_META_KEY = "recording";

/** Options of {@linkcode runRecord}. */
export interface RunRecordOptions extends StdioRecordOptions {
  /** `--mode`: absent means "record, whatever is there". */
  mode?: string;
  /** `--group`: the recording this launch works for. */
  group?: string;
  /** `--run-log`: the run report file (see ./run_report.ts). */
  runLog?: string;
  log?: (line: string) => void;
}

async function recordedBy(path: string): Promise<string | undefined> {
  try {
    const value = (await loadCassette(path)).header.meta?.[RECORDING_META_KEY];
    return typeof value === "string" ? value : undefined;
  } catch {
    return undefined;
  }
}

/** Serves an existing cassette on this process's stdio (a reader: no claim). */
async function replayHere(
  path: string,
  reporter: RunReporter,
  log: (line: string) => void,
): Promise<number> {
  reporter.start("replay");
  const engine = new ReplayEngine(await loadCassette(path), { log });
  const report = await serveStdio(engine, { input: runtime.stdin, output: runtime.stdout, log });
  for (const line of formatReport(report, true)) log(line);
  return reporter.end("replay", report.misses.length > 0 ? 3 : 0, report);
}

/** Records (or replays, as the mode decides) one stdio launch; resolves with the exit code. */
export async function runRecord(options: RunRecordOptions): Promise<number> {
  const log = options.log ?? (() => {});
  const mode: RecordMode = options.mode === undefined
    ? "all"
    : resolveRecordMode(options.mode, undefined, "--mode");
  await checkCassetteFolder(options.output);
  const reporter = new RunReporter(options.runLog);
  const exists = (await runtime.stat(options.output))?.isFile === true;
  const mine = options.group !== undefined && exists &&
    (await recordedBy(options.output)) === options.group;
  // A sibling launch of this recording extends it, whatever the mode says about existing cassettes.
  const action = mine ? "record" : actionFor(mode, exists, options.output);
  // A fresh recording is written in place: while its writer's claim is live, wait for it instead.
  if (action === "replay" && !(await beingWritten(options.output))) {
    return await replayHere(options.output, reporter, log);
  }
  if (action === "replay-append") return await replayAppending(options, reporter, log);

  const abort = new AbortController();
  const stops = (["SIGINT", "SIGTERM"] as const).map((signal) =>
    runtime.onSignal(signal, () => abort.abort())
  );
  let acquired;
  try {
    acquired = await acquireClaim(options.output, {
      group: options.group,
      // The claim file sits beside the cassette: it names the server as its header does.
      command: options.redactor
        ? redactCommandLine(options.redactor, options.command)
        : options.command,
      onHeld: mode === "once" ? "wait" : "fail",
      force: options.force,
      log,
      signal: abort.signal,
    });
  } catch (error) {
    // A launch that lost the claim (mode all) says so in the run log too.
    if (error instanceof CassetteError) reporter.failed("record", error);
    throw error;
  } finally {
    stops.forEach((stop) => stop());
  }
  const { claim } = acquired;
  try {
    // Looked at again under the claim: a sibling launch may have written the cassette meanwhile.
    const writer = (await runtime.stat(options.output))?.isFile
      ? await recordedBy(options.output)
      : undefined;
    const siblingWrote = options.group !== undefined && writer === options.group;
    if (mode === "once" && (await runtime.stat(options.output))?.isFile && !siblingWrote) {
      // Another recording finished this cassette since we looked (we may have waited for it): replay it.
      await claim.release();
      return await replayHere(options.output, reporter, log);
    }
    reporter.start("record");
    const meta = options.group !== undefined
      ? { ...options.meta, [RECORDING_META_KEY]: options.group }
      : options.meta;
    // A recording of the library joins the cassette only as a sibling launch of itself.
    const appendWindowMs = options.group !== undefined && !siblingWrote
      ? 0
      : options.appendWindowMs;
    let code: number;
    try {
      code = await recordStdio({ ...options, meta, appendWindowMs });
    } catch (error) {
      if (error instanceof CassetteError) reporter.failed("record", error);
      throw error;
    }
    return reporter.end("record", code);
  } finally {
    await claim.release();
  }
}

async function replayAppending(
  options: RunRecordOptions,
  reporter: RunReporter,
  log: (line: string) => void,
) {
  const episodes = await openNewEpisodes({
    cassette: options.output,
    command: options.command,
    group: options.group,
    force: options.force,
    log,
    graceMs: options.graceMs,
  }).catch((error) => {
    if (error instanceof CassetteError) reporter.failed("replay-append", error);
    throw error;
  });
  const stops = (["SIGINT", "SIGTERM"] as const).map((signal) =>
    runtime.onSignal(
      signal,
      () => void episodes.close().finally(() => runtime.exit(signal === "SIGINT" ? 130 : 143)),
    )
  );
  try {
    reporter.start("replay-append");
    const engine = new ReplayEngine(await loadCassette(options.output), episodes.extend({ log }));
    const report = await serveStdio(engine, { input: runtime.stdin, output: runtime.stdout, log });
    for (const line of formatReport(report, true)) log(line);
    return reporter.end(
      "replay-append",
      report.misses.length > 0 ? 3 : 0,
      report,
      episodes.appended,
    );
  } finally {
    stops.forEach((stop) => stop());
    await episodes.close();
  }
}

/** Checks a server command was given where recording needs one. */
export function requireServer(command: string[], what: string): void {
  if (command.length === 0) throw new UsageError(`${what} needs the live server command after --`);
}
