/**
 * The `runs` gate: reads the reports of several runs of one test (or of one
 * test under several models), and compares what their agents called. It
 * returns a {@linkcode RunsReport}; printing it is the command's business.
 *
 * @module
 */
import { UsageError } from "../errors/errors.ts";
import { compareRuns } from "./compare.ts";
import type { RunsReport } from "./compare.ts";
import { readRecorded } from "./drift.ts";
import { namedRecorded } from "./named.ts";
import { readRun, reportFiles } from "./read.ts";

export type { DriftPath, RunsReport, RunSummary, ToolRow } from "./compare.ts";
export { formatMarkdown, formatTable, UNRECORDED_MARK } from "./format.ts";

/** What {@linkcode compareReports} needs besides the reports. */
export interface RunsOptions {
  /**
   * The cassette the runs replayed: its recordings are what argument drift
   * is measured against. Without it, the one the reports name by path.
   */
  cassette?: string;
}

/** Reads the reports (files, or folders of them) and compares the runs. */
export async function compareReports(
  paths: readonly string[],
  options: RunsOptions = {},
): Promise<RunsReport> {
  if (paths.length === 0) {
    throw new UsageError(
      "runs needs at least one REPORT (a file or a folder), or MCP_CASSETTE_REPORT_DIR set",
    );
  }
  const runs = [];
  for (const file of await reportFiles(paths)) runs.push(await readRun(file));
  if (options.cassette === undefined) {
    const named = await namedRecorded(runs);
    return compareRuns(runs, named.recorded, named.path);
  }
  return compareRuns(runs, await readRecorded(options.cassette), options.cassette);
}
