/**
 * The comparison `runs` prints: per tool, how often each run called it, how
 * its arguments drifted from the recordings that answered them, its misses,
 * and whether the recording ever saw it; per run, the order its tools were
 * first called in and whether that order differs from the first run's.
 *
 * @module
 */
import type { JournalEntry } from "../replay/journal.ts";
import { entryDrift, nameOf } from "./drift.ts";
import type { RecordedArguments } from "./drift.ts";
import type { Run } from "./read.ts";

/** One argument path that differed from the recording, and in how many calls. */
export interface DriftPath {
  path: string;
  count: number;
}

/** One tool across the runs. */
export interface ToolRow {
  name: string;
  /** Calls per run, in the order of {@linkcode RunsReport.runs}. */
  calls: number[];
  /** Calls no recording answered, per run. */
  misses: number[];
  /** True when some run's recording never saw this tool. */
  unrecorded: boolean;
  /** Calls whose arguments were compared with the recording that answered them (or, for a miss, the closest). */
  compared: number;
  /** The argument paths that differed, most often first. */
  drift: DriftPath[];
}

/** One run, summed up. */
export interface RunSummary {
  file: string;
  /** The SHA-256 of the cassette's first line the report names, when it does. */
  cassette?: string;
  /** Tool calls in the run. */
  calls: number;
  /** Requests of any method no recording answered. */
  misses: number;
  /** Requests the journal counted but did not keep. */
  dropped: number;
  /** Tools called that the run's recording never saw. */
  unrecordedTools: string[];
  /** The tools in the order they were first called. */
  order: string[];
  /** True when the tools it shares with the first run were first called in another order. */
  orderChanged: boolean;
}

/** What `runs` answers. */
export interface RunsReport {
  runs: RunSummary[];
  tools: ToolRow[];
  /** Whether argument drift was computed, and why not when it was not. */
  drift: { known: boolean; cassette?: string; reason?: string };
  /** Things worth saying: reports of different cassettes, dropped requests, unknown drift. */
  notes: string[];
}

const isCall = (entry: JournalEntry) => entry.method === "tools/call";

function firstOrder(run: Run): string[] {
  const seen = new Set<string>();
  for (const entry of run.requests) if (isCall(entry)) seen.add(nameOf(entry));
  return [...seen];
}

function orderDiffers(first: readonly string[], order: readonly string[]): boolean {
  const shared = (list: readonly string[], other: readonly string[]) =>
    list.filter((name) => other.includes(name));
  return shared(first, order).join("\n") !== shared(order, first).join("\n");
}

function summarise(run: Run, first: readonly string[]): RunSummary {
  const order = firstOrder(run);
  return {
    file: run.file,
    cassette: run.cassette,
    calls: run.requests.filter(isCall).length,
    misses: run.requests.filter((entry) => entry.outcome === "miss").length,
    dropped: run.dropped,
    unrecordedTools: run.tools ? order.filter((name) => !run.tools!.includes(name)) : [],
    order,
    orderChanged: orderDiffers(first, order),
  };
}

function toolRows(runs: readonly Run[], summaries: readonly RunSummary[]): Map<string, ToolRow> {
  const rows = new Map<string, ToolRow>();
  runs.forEach((run, index) => {
    for (const entry of run.requests.filter(isCall)) {
      const name = nameOf(entry);
      let row = rows.get(name);
      if (!row) {
        const zeros = () => runs.map(() => 0);
        row = { name, calls: zeros(), misses: zeros(), unrecorded: false, compared: 0, drift: [] };
        rows.set(name, row);
      }
      row.calls[index]++;
      if (entry.outcome === "miss") row.misses[index]++;
      if (summaries[index].unrecordedTools.includes(name)) row.unrecorded = true;
    }
  });
  return rows;
}

function addDrift(rows: Map<string, ToolRow>, runs: readonly Run[], recorded: RecordedArguments) {
  for (const run of runs.filter((run) => run.cassette === recorded.headerSha256)) {
    for (const [index, entry] of run.requests.entries()) {
      if (!isCall(entry)) continue;
      const paths = entryDrift(entry, recorded, run.closest.get(index));
      const row = rows.get(nameOf(entry));
      if (!paths || !row) continue;
      row.compared++;
      for (const path of paths) {
        const known = row.drift.find((drift) => drift.path === path);
        if (known) known.count++;
        else row.drift.push({ path, count: 1 });
      }
    }
  }
  for (const row of rows.values()) {
    row.drift.sort((a, b) => b.count - a.count || a.path.localeCompare(b.path));
  }
}

/**
 * Compares the runs. `recorded` is the cassette's recorded arguments, or
 * the reason they are not at hand (drift is then unknown).
 */
export function compareRuns(
  runs: readonly Run[],
  recorded: RecordedArguments | string,
  cassettePath?: string,
): RunsReport {
  const first = runs.length > 0 ? firstOrder(runs[0]) : [];
  const summaries = runs.map((run) => summarise(run, first));
  const rows = toolRows(runs, summaries);
  const notes = cassetteNotes(runs, recorded, cassettePath);
  for (const run of summaries.filter((run) => run.dropped > 0)) {
    notes.push(`${run.file}: its journal dropped ${run.dropped} request(s) past its limit`);
  }
  if (typeof recorded !== "string") addDrift(rows, runs, recorded);
  const drift = typeof recorded === "string"
    ? { known: false, reason: recorded }
    : { known: true, cassette: cassettePath };
  const tools = [...rows.values()].sort((a, b) => a.name.localeCompare(b.name));
  return { runs: summaries, tools, drift, notes };
}

function cassetteNotes(
  runs: readonly Run[],
  recorded: RecordedArguments | string,
  cassettePath?: string,
): string[] {
  const notes: string[] = [];
  const named = new Set(runs.map((run) => run.cassette ?? "(none)"));
  if (named.size > 1) {
    notes.push(`the reports name ${named.size} different cassettes: counts compare unlike runs`);
  }
  if (typeof recorded === "string") {
    notes.push(`argument drift unknown: ${recorded}`);
    return notes;
  }
  for (const run of runs.filter((run) => run.cassette !== recorded.headerSha256)) {
    notes.push(
      `${run.file}: argument drift unknown: it names another cassette than ${cassettePath}`,
    );
  }
  return notes;
}
