/**
 * What a replay saw, gathered across its sessions and printed at the end.
 *
 * @module
 */
import type { CassetteHeader } from "../cassette/format.ts";
import type { MissReport } from "../errors/errors.ts";
import { sha256Hex } from "../redact/sha256.ts";
import { absolutePath } from "../files/absolute.ts";
import { emptyJournal, resetJournal } from "./journal.ts";
import type { Journal } from "./journal.ts";

/** A client answer to a server request that differed from the recording. */
export interface Divergence {
  method: string;
  path: string;
  before: unknown;
  after: unknown;
}

/** A server→client message and what became of it. */
export interface ServerInitiated {
  method: string;
  delivered: boolean;
  /** `as-recorded`, `divergent`, `timeout`, `not-asked` (a notification) or `cancelled`. */
  outcome: "as-recorded" | "divergent" | "timeout" | "notification" | "cancelled";
  /** Notifications are counted, one entry per method: a long replay sends millions. */
  count?: number;
}

/** A recorded request and how the live clients used it. */
export interface RecordedUse {
  /** Its cassette line (1-based). */
  line: number;
  method: string;
  /** The tool, prompt or resource it names. */
  name?: string;
  /** The cassette marks it `optional`: it may go unplayed. */
  optional?: true;
  /** Answered live requests with the same key, in causal order. */
  played: number;
  /** Stood in for a live request with another key (`match: "lenient"`). */
  inexact: number;
  /** Answered again after its recordings ran out. */
  repeated: number;
  /** Answered although it was recorded after a request the live session had not made. */
  outOfOrder: number;
}

/** The cassette a report is about. */
export interface ReportedCassette {
  /** The SHA-256 of its first line (without the newline). */
  headerSha256: string;
  /** Its path as the replay was given it. */
  path?: string;
  /** That path made absolute against the replay's working folder. */
  resolvedPath?: string;
}

/**
 * How a report names the cassette at `given` whose first line is
 * `headerText` (a converted file has none: its header serialised is hashed).
 */
export function reportedCassette(
  given: string,
  header: CassetteHeader,
  headerText?: string,
): ReportedCassette {
  const named: ReportedCassette = {
    headerSha256: sha256Hex(headerText ?? JSON.stringify(header)),
  };
  if (given) Object.assign(named, { path: given, resolvedPath: absolutePath(given) });
  return named;
}

/** The end-of-session report. */
export interface ReplayReport {
  /** The cassette the report is about: the SHA-256 of its first line, and its path. */
  cassette?: ReportedCassette;
  misses: MissReport[];
  /** Requests answered by repeating an exhausted queue's last answer. */
  repeats: string[];
  /** Requests answered by the next unused answer of the same method. */
  inexact: string[];
  /** Recorded requests no client asked for (but those the cassette marks `optional`). */
  unplayed: string[];
  /** Requests answered by a recording made after a request the live session had not made. */
  outOfOrder: string[];
  /** Every recorded request, by cassette line, with how it was used (set at the end). */
  recorded: RecordedUse[];
  divergences: Divergence[];
  timeouts: string[];
  /** Messages that made no sense (an answer to a question never asked). */
  strays: string[];
  serverInitiated: ServerInitiated[];
  unfiredFaults: string[];
  /** The tools the recording lists or calls (set at the end; see ./known_tools.ts). */
  tools?: string[];
  /** Every live request in arrival order, how it was answered and by which line (./journal.ts). */
  journal: Journal;
  /** Spy mode: the requests no recording answered that the live server did, in order. */
  live?: string[];
}

/** Each report's notification entries by method, so counting one is a lookup. */
const notificationEntries = new WeakMap<ReplayReport, Map<string, ServerInitiated>>();

/** Counts one server notification delivered under `method`. */
export function countNotification(report: ReplayReport, method: string): void {
  let byMethod = notificationEntries.get(report);
  if (!byMethod) notificationEntries.set(report, byMethod = new Map());
  const entry = byMethod.get(method);
  if (entry) {
    entry.count = (entry.count ?? 1) + 1;
    return;
  }
  const fresh: ServerInitiated = { method, delivered: true, outcome: "notification", count: 1 };
  byMethod.set(method, fresh);
  report.serverInitiated.push(fresh);
}

/** An empty report; its journal keeps at most `journalLimit` requests. */
export function emptyReport(journalLimit?: number): ReplayReport {
  return {
    misses: [],
    repeats: [],
    inexact: [],
    unplayed: [],
    outOfOrder: [],
    recorded: [],
    divergences: [],
    timeouts: [],
    strays: [],
    serverInitiated: [],
    unfiredFaults: [],
    journal: emptyJournal(journalLimit),
  };
}

/** Empties a report in place (a control reset): its journal keeps its limit. */
export function resetReport(report: ReplayReport): void {
  const { journal } = report;
  resetJournal(journal);
  notificationEntries.delete(report);
  Object.assign(report, emptyReport(journal.limit), { journal });
}

function short(value: unknown): string {
  const text = JSON.stringify(value) ?? "undefined";
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

/**
 * Formats the report as lines for stderr; empty when there is nothing to say.
 * With `logged`, what the replay already printed as it happened (misses,
 * repeats, inexact and out-of-order answers, divergences, timeouts, strays)
 * is counted in one line rather than printed again.
 */
export function formatReport(report: ReplayReport, logged = false): string[] {
  const lines: string[] = logged ? tally(report) : eventLines(report);
  for (const text of report.unfiredFaults) lines.push(`fault never fired: ${text}`);
  if (report.unplayed.length > 0) {
    lines.push(
      `recorded but never asked for (${report.unplayed.length}): ${report.unplayed.join(", ")}`,
    );
  }
  return lines;
}

function eventLines(report: ReplayReport): string[] {
  const lines: string[] = [];
  for (const miss of report.misses) lines.push(`miss: ${miss.message}`);
  for (const text of report.repeats) lines.push(`repeated last answer: ${text}`);
  for (const text of report.inexact) lines.push(`inexact match: ${text}`);
  for (const text of report.outOfOrder) lines.push(`out of order: ${text}`);
  for (const d of report.divergences) {
    lines.push(
      `divergent client answer to ${d.method} at ${d.path}: recorded ${short(d.before)}, got ${
        short(d.after)
      }`,
    );
  }
  for (const text of report.timeouts) lines.push(`timeout: ${text}`);
  for (const text of report.strays) lines.push(`ignored: ${text}`);
  for (const text of report.live ?? []) lines.push(`answered live: ${text}`);
  return lines;
}

/** One line counting the events already printed, or none. */
function tally(report: ReplayReport): string[] {
  const counts: [number, string][] = [
    [report.misses.length, "missed"],
    [report.inexact.length, "inexact"],
    [report.outOfOrder.length, "out of order"],
    [report.repeats.length, "repeated"],
    [report.divergences.length, "divergent"],
    [report.timeouts.length, "timed out"],
    [report.live?.length ?? 0, "answered live"],
  ];
  const said = counts.filter(([count]) => count > 0).map(([count, what]) => `${count} ${what}`);
  return said.length > 0 ? [`session summary: ${said.join(", ")} (each shown above)`] : [];
}
