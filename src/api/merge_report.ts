/**
 * How a test's result gathers the reports of its launches: a stdio client
 * may start the replay more than once in one test, and each launch writes a
 * report of its own.
 *
 * @module
 */
import { appendJournal } from "../replay/journal.ts";
import type { Journal } from "../replay/journal.ts";
import type { RecordedUse, ReplayReport } from "../replay/report.ts";

/** The part of a test's result that reports add up to. */
export interface MergedReports {
  /** Every live request of every launch, in order (see docs/replay.md "The journal"). */
  journal: Journal;
  /** Every recorded request by cassette line, with its uses summed over the launches. */
  recorded: RecordedUse[];
  /** The tools the recording lists or calls. */
  tools: string[];
}

/**
 * Adds one launch's report: its journal's requests named `session` when
 * given (a stdio launch is one client session), its uses added line by line.
 */
export function mergeReport(into: MergedReports, report: ReplayReport, session?: string): void {
  appendJournal(into.journal, report.journal, session);
  const byLine = new Map(into.recorded.map((row) => [row.line, row]));
  for (const row of report.recorded ?? []) {
    const seen = byLine.get(row.line);
    if (!seen) {
      const copy = { ...row };
      into.recorded.push(copy);
      byLine.set(row.line, copy);
      continue;
    }
    seen.played += row.played;
    seen.inexact += row.inexact;
    seen.repeated += row.repeated;
    seen.outOfOrder += row.outOfOrder;
  }
  into.recorded.sort((a, b) => a.line - b.line);
  into.tools = [...new Set([...into.tools, ...(report.tools ?? [])])].sort();
}
