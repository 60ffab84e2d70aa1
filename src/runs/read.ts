/**
 * Reads the reports `runs` compares: the JSON files `replay --report` and the
 * test helpers write, given one by one or as a folder of them. A file that is
 * not such a report is refused, naming the file and what is missing.
 *
 * @module
 */
import type { JournalEntry } from "../replay/journal.ts";
import { runtime } from "../runtime/mod.ts";
import { isObject } from "../util/helpers.ts";
import { readReport, ReportError } from "../view/reports.ts";

/** One run: a report's journal, the cassette it names and the tools the recording knows. */
export interface Run {
  /** The report file. */
  file: string;
  /** The SHA-256 of the cassette's first line, when the report names it. */
  cassette?: string;
  /** The cassette's path as the replay was given it, and made absolute, when the report says. */
  cassettePath?: { given: string; resolved?: string };
  /** The tools the recording lists or calls; undefined when the report does not say. */
  tools?: string[];
  requests: JournalEntry[];
  /** Requests the journal counted but did not keep (its limit). */
  dropped: number;
  /** For a missed request, by its index in `requests`: the line of the closest recording. */
  closest: Map<number, number>;
}

/** The report files: a folder stands for its `.json` files, in name order. */
export async function reportFiles(paths: readonly string[]): Promise<string[]> {
  const files: string[] = [];
  for (const given of paths) {
    const info = await runtime.stat(given).catch(() => undefined);
    if (!info?.isDirectory) {
      files.push(given);
      continue;
    }
    const names = (await runtime.readDir(given)).filter((name) => name.endsWith(".json")).sort();
    if (names.length === 0) throw new ReportError(given, "the folder holds no .json report");
    const folder = given.replace(/[\\/]+$/, "");
    for (const name of names) files.push(`${folder}/${name}`);
  }
  return files;
}

function entry(file: string, row: unknown, index: number): JournalEntry {
  const at = `journal.requests[${index}]`;
  if (!isObject(row) || typeof row.method !== "string" || typeof row.outcome !== "string") {
    throw new ReportError(file, `${at} must be an object with a method and an outcome`);
  }
  return row as unknown as JournalEntry;
}

/**
 * The closest recording of each missed request. The report's `misses` name
 * it, in arrival order like the journal; they are paired only when both
 * hold the same misses (a count and methods that agree), never guessed.
 */
function closestLines(requests: readonly JournalEntry[], misses: unknown): Map<number, number> {
  const closest = new Map<number, number>();
  const missed = requests.flatMap((entry, i) => entry.outcome === "miss" ? [i] : []);
  if (!Array.isArray(misses) || misses.length !== missed.length) return closest;
  const agree = misses.every((miss, k) =>
    isObject(miss) && miss.method === requests[missed[k]].method
  );
  if (!agree) return closest;
  missed.forEach((index, k) => {
    const line = (misses[k] as Record<string, unknown>).closestLine;
    if (typeof line === "number") closest.set(index, line);
  });
  return closest;
}

/** Reads one report; a file without a journal is not a replay report. */
export async function readRun(file: string): Promise<Run> {
  const value = await readReport(file);
  const journal = value.journal;
  if (!isObject(journal) || !Array.isArray(journal.requests)) {
    throw new ReportError(file, "not a replay report: it has no journal.requests");
  }
  const named = isObject(value.cassette) ? value.cassette : {};
  const cassette = typeof named.headerSha256 === "string" ? named.headerSha256 : undefined;
  const given = typeof named.path === "string" && named.path ? named.path : undefined;
  const resolved = typeof named.resolvedPath === "string" && named.resolvedPath
    ? named.resolvedPath
    : undefined;
  const tools = Array.isArray(value.tools)
    ? value.tools.filter((name): name is string => typeof name === "string")
    : undefined;
  const requests = journal.requests.map((row, i) => entry(file, row, i));
  return {
    file,
    cassette,
    ...(given ? { cassettePath: { given, ...(resolved ? { resolved } : {}) } } : {}),
    tools,
    requests,
    dropped: typeof journal.dropped === "number" ? journal.dropped : 0,
    closest: closestLines(requests, value.misses),
  };
}
