/**
 * Reads the JSON reports `replay --report` and the test helpers write, checks
 * that each was written for the cassette at hand, and merges them into one
 * verdict per recorded request. `view` marks its rows with the verdicts;
 * `prune` removes the requests no run asked for.
 *
 * @module
 */
import type { Cassette } from "../cassette/reader.ts";
import { CassetteError } from "../errors/errors.ts";
import { sha256Hex } from "../redact/sha256.ts";
import { listMessages } from "../surface/mod.ts";
import { runtime } from "../runtime/mod.ts";
import { isObject } from "../util/helpers.ts";

/** A report that cannot be used: names the file and what is wrong with it. */
export class ReportError extends CassetteError {
  constructor(readonly file: string, problem: string) {
    super(`${file}: ${problem}`);
  }
}

export type { RecordedUse } from "../replay/report.ts";
import type { RecordedUse } from "../replay/report.ts";
import { writeFileSafely } from "../files/safe_write.ts";

/** A live request a run asked that no recording answered. */
export interface ReportMiss {
  method: string;
  message: string;
  closestLine?: number;
  path?: string;
  /** The report file it came from. */
  file: string;
}

/** What a recorded request became over all the runs. */
export type Verdict = "played" | "inexact" | "repeated" | "never";

/** Several reports of one cassette, merged. */
export interface MergedReports {
  files: string[];
  /** Per cassette line of a recorded request, the summed counts. */
  recorded: Map<number, RecordedUse>;
  misses: ReportMiss[];
}

/**
 * The SHA-256 (hex) of a cassette's first line without its newline: what a
 * report names its cassette by. A file converted from another tool's format
 * has no such line of ours; replay hashes its header serialised, and so does
 * this.
 */
export function headerSha256(cassette: Cassette): string {
  return sha256Hex(cassette.headerText ?? JSON.stringify(cassette.header));
}

function count(file: string, row: Record<string, unknown>, field: string, at: string): number {
  const value = row[field] ?? 0;
  if (typeof value !== "number" || !Number.isInteger(value) || value < 0) {
    throw new ReportError(file, `${at}.${field} must be a count, not ${JSON.stringify(value)}`);
  }
  return value;
}

function recordedRow(file: string, row: unknown, index: number): RecordedUse {
  const at = `recorded[${index}]`;
  if (!isObject(row)) throw new ReportError(file, `${at} must be an object`);
  if (typeof row.line !== "number" || !Number.isInteger(row.line) || row.line < 2) {
    throw new ReportError(file, `${at}.line must be a cassette line number`);
  }
  return {
    line: row.line,
    method: typeof row.method === "string" ? row.method : "?",
    name: typeof row.name === "string" ? row.name : undefined,
    ...(row.optional === true ? { optional: true as const } : {}),
    played: count(file, row, "played", at),
    inexact: count(file, row, "inexact", at),
    repeated: count(file, row, "repeated", at),
    outOfOrder: count(file, row, "outOfOrder", at),
  };
}

function missRow(file: string, row: unknown): ReportMiss {
  const miss = isObject(row) ? row : {};
  return {
    method: typeof miss.method === "string" ? miss.method : "?",
    message: typeof miss.message === "string" ? miss.message : JSON.stringify(row),
    closestLine: typeof miss.closestLine === "number" ? miss.closestLine : undefined,
    path: typeof miss.path === "string" ? miss.path : undefined,
    file,
  };
}

/** Reads a JSON report file as an object; anything else is one {@linkcode ReportError} naming it. */
export async function readReport(file: string): Promise<Record<string, unknown>> {
  let text: string;
  try {
    text = await runtime.readTextFile(file);
  } catch (error) {
    const code = (error as { code?: string }).code;
    const problem = code === "ENOENT" ? "no such file" : (error as Error).message.split("\n")[0];
    throw new ReportError(file, `cannot read the report: ${problem}`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new ReportError(file, `not a JSON report (${(error as Error).message})`);
  }
  if (!isObject(value)) throw new ReportError(file, "a report must be a JSON object");
  return value;
}

/** A report file, and the folder it was found in when it was given as one. */
interface ReportSource {
  file: string;
  folder?: string;
}

/** The report files: a folder (`MCP_CASSETTE_REPORT_DIR`) stands for its `.json` files. */
async function reportSources(paths: readonly string[]): Promise<ReportSource[]> {
  const sources: ReportSource[] = [];
  for (const given of paths) {
    const info = await runtime.stat(given).catch(() => undefined);
    if (!info?.isDirectory) {
      sources.push({ file: given });
      continue;
    }
    const names = (await runtime.readDir(given)).filter((name) => name.endsWith(".json")).sort();
    if (names.length === 0) throw new ReportError(given, "the folder holds no .json report");
    const folder = given.replace(/[\\/]+$/, "");
    for (const name of names) sources.push({ file: `${folder}/${name}`, folder: given });
  }
  return sources;
}

/** The method of each recorded client request, by cassette line. */
function requestMethods(cassette: Cassette): Map<number, Set<string>> {
  const methods = new Map<number, Set<string>>();
  for (const message of listMessages(cassette.entries)) {
    if (message.dir !== "c2s" || message.kind !== "request" || message.method === undefined) {
      continue;
    }
    const known = methods.get(message.line) ?? new Set<string>();
    methods.set(message.line, known.add(message.method));
  }
  return methods;
}

/**
 * Refuses a report whose rows do not name this cassette's requests. The
 * header hash cannot tell: `prune` keeps the header, so a report from before
 * a prune still names the pruned cassette, but its lines have moved.
 */
function checkRows(file: string, rows: readonly RecordedUse[], cassette: Cassette): void {
  const methods = requestMethods(cassette);
  for (const row of rows) {
    if (methods.get(row.line)?.has(row.method)) continue;
    throw new ReportError(
      file,
      `its line ${row.line} (${row.method}) is not a ${row.method} request in ${cassette.path}: ` +
        "the report is older than the cassette (was it pruned since?)",
    );
  }
}

/**
 * Loads and merges reports of `cassette`. A folder stands for the reports in
 * it, where reports of other cassettes are passed over (a suite's folder
 * holds every cassette's); a file given by name must be of this cassette.
 * Throws a {@linkcode ReportError} for a report that is not one, that was
 * written for another cassette, or whose lines no longer fit it.
 */
export async function loadReports(
  paths: readonly string[],
  cassette: Cassette,
): Promise<MergedReports> {
  const cassettePath = cassette.path;
  const sha256 = headerSha256(cassette);
  const merged: MergedReports = { files: [], recorded: new Map(), misses: [] };
  const folders = new Map<string, number>();
  for (const { file, folder } of await reportSources(paths)) {
    const report = await readReport(file);
    const named = isObject(report.cassette) ? report.cassette : undefined;
    if (typeof named?.headerSha256 !== "string") {
      throw new ReportError(file, "the report has no cassette.headerSha256 (not a replay report)");
    }
    if (folder !== undefined) folders.set(folder, folders.get(folder) ?? 0);
    if (named.headerSha256 !== sha256) {
      if (folder !== undefined) continue;
      throw new ReportError(
        file,
        `written for another cassette: its header sha256 is ${
          named.headerSha256.slice(0, 12)
        }…, ${cassettePath}'s is ${sha256.slice(0, 12)}…`,
      );
    }
    if (!Array.isArray(report.recorded)) {
      throw new ReportError(file, "the report has no recorded list");
    }
    if (folder !== undefined) folders.set(folder, folders.get(folder)! + 1);
    merged.files.push(file);
    const rows = report.recorded.map((row, index) => recordedRow(file, row, index));
    checkRows(file, rows, cassette);
    for (const row of rows) addUse(merged.recorded, row);
    if (Array.isArray(report.misses)) {
      for (const miss of report.misses) merged.misses.push(missRow(file, miss));
    }
  }
  for (const [folder, matched] of folders) {
    if (matched === 0) {
      throw new ReportError(folder, `no report in the folder was written for ${cassettePath}`);
    }
  }
  return merged;
}

function addUse(into: Map<number, RecordedUse>, use: RecordedUse): void {
  const known = into.get(use.line);
  if (!known) {
    into.set(use.line, { ...use });
    return;
  }
  known.played += use.played;
  known.inexact += use.inexact;
  known.repeated += use.repeated;
  known.outOfOrder += use.outOfOrder;
}

/**
 * One word for a recorded request: never asked when no run used it; else the
 * least exact way any run did (a repeat outranks an inexact match).
 */
export function verdictOf(use: RecordedUse): Verdict {
  if (use.played + use.inexact + use.repeated + use.outOfOrder === 0) return "never";
  if (use.repeated > 0) return "repeated";
  if (use.inexact > 0) return "inexact";
  return "played";
}

/** Whether any run asked for the request at all. */
export function wasAsked(use: RecordedUse | undefined): boolean {
  return use !== undefined && verdictOf(use) !== "never";
}

/**
 * Writes `text` through a side file renamed over `path`
 * (../files/safe_write.ts), so a reader never sees half a file, a failed
 * write leaves the old one, and a link at `path` is refused, not followed.
 */
export async function writeAside(path: string, text: string): Promise<void> {
  await writeFileSafely(path, text);
}
