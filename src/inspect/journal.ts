/**
 * `inspect --report REPORT`: the journal of a replay report, read back and
 * printed. A report is the JSON `replay --report FILE` writes (one object
 * with `journal`), or a run log (`--run-log`, JSON lines whose `end` lines
 * carry a launch's report), whose launches' journals are joined in order.
 *
 * @module
 */
import { CassetteError } from "../errors/errors.ts";
import { isObject } from "../util/helpers.ts";
import { runtime } from "../runtime/mod.ts";
import { appendJournal, emptyJournal } from "../replay/journal.ts";
import type { Journal, JournalEntry } from "../replay/journal.ts";

/** Reads the journal of the report at `path`; throws a one-line error naming what is wrong. */
export async function readReportJournal(path: string): Promise<Journal> {
  let text: string;
  try {
    text = await runtime.readTextFile(path);
  } catch (error) {
    throw new CassetteError(`Cannot read the report ${path}: ${(error as Error).message}`);
  }
  const whole = parsed(text);
  if (isObject(whole)) return journalOf(whole, path);
  // A run log: one JSON object a line, the `end` lines holding their launch's report.
  const journal = emptyJournal();
  let launch = 0;
  for (const [index, line] of text.split("\n").entries()) {
    if (line.trim() === "") continue;
    const row = parsed(line);
    if (!isObject(row)) {
      throw new CassetteError(`${path}:${index + 1}: not a replay report nor a run log line`);
    }
    if (row.event !== "end" || !isObject(row.report)) continue;
    appendJournal(journal, journalOf(row.report, `${path}:${index + 1}`), String(++launch));
  }
  return journal;
}

function parsed(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function journalOf(report: Record<string, unknown>, where: string): Journal {
  const journal = report.journal;
  if (!isObject(journal) || !Array.isArray(journal.requests)) {
    throw new CassetteError(
      `${where}: the report has no journal (written by a replay that kept none, or not a replay report)`,
    );
  }
  return journal as unknown as Journal;
}

/** The journal as text: one row per request, then what was dropped. */
export function formatJournalText(journal: Journal, source: string): string {
  const rows = [["#", "session", "method", "name", "outcome", "line", "arguments"]];
  journal.requests.forEach((entry, index) => {
    rows.push([
      String(index + 1),
      entry.session,
      entry.method,
      nameOf(entry) ?? "",
      entry.outcome,
      entry.line === undefined ? "" : String(entry.line),
      entry.arguments === undefined ? "" : shortJson(entry.arguments),
    ]);
  });
  const count = journal.requests.length;
  const lines = [`Journal of ${source}: ${count} request(s)`];
  if (count > 0) lines.push(...padded(rows));
  if (journal.dropped > 0) {
    lines.push(`  ${journal.dropped} more not kept (the journal keeps ${journal.limit})`);
  }
  return lines.join("\n") + "\n";
}

/** The tool, prompt or resource an entry names. */
export function nameOf(entry: JournalEntry): string | undefined {
  return entry.tool ?? entry.prompt ?? entry.resource;
}

function shortJson(value: unknown): string {
  const text = JSON.stringify(value) ?? "";
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

function padded(rows: string[][]): string[] {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((row) => row[i].length)));
  return rows.map((row) =>
    "  " + row.map((cell, i) => cell.padEnd(widths[i])).join("  ").trimEnd()
  );
}
