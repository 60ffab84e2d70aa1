/**
 * `mcp-cassette inspect`: what a cassette holds.
 *
 * @module
 */
import { INSPECT_OPTIONS } from "../options/inspect.ts";
import type { Command } from "../cli/command.ts";
import { flag, stringOption } from "../cli/command.ts";
import { printOut } from "../cli/output.ts";
import { loadCassette } from "../cassette/reader.ts";
import type { Cassette } from "../cassette/reader.ts";
import type { Entry } from "../cassette/format.ts";
import { CassetteError, ExitCode, UsageError } from "../errors/errors.ts";
import {
  formatReportText,
  formatTimelineText,
  inspectCassette,
  inspectFile,
  timeline,
  timelineOfFile,
} from "../inspect/mod.ts";
import type { InspectReport, TimelineRow } from "../inspect/mod.ts";
import { stableStringify } from "../json/values.ts";
import { listMessages } from "../surface/mod.ts";
import { explainConfig } from "../config/explain.ts";
import { formatJournalText, readReportJournal } from "../inspect/journal.ts";

/** What `--faults` reports for one overlay entry. */
interface FaultDryRun {
  entry: string;
  hits: { index: number; method: string; name?: string; line: number }[];
}

/** The slice of src/faults/mod.ts this command uses, loaded only for --faults. */
interface FaultsModule {
  loadFaultOverlay(path: string): Promise<unknown>;
  dryRunFaults(
    overlay: unknown,
    subjects: readonly unknown[],
  ): { entry: string; hits: { index: number; method: string; name?: string }[] }[];
  recordedRequests(entries: readonly Entry[]): unknown[];
}

async function loadFaultsModule(): Promise<FaultsModule> {
  // Loaded lazily: nothing but --faults needs the fault library.
  try {
    return await import("../faults/mod.ts") as unknown as FaultsModule;
  } catch (error) {
    throw new CassetteError(
      `--faults is not available in this build: the fault library did not load (${
        (error as Error).message.split("\n")[0]
      })`,
    );
  }
}

async function dryRun(cassette: Cassette, path: string): Promise<FaultDryRun[]> {
  const faults = await loadFaultsModule();
  const overlay = await faults.loadFaultOverlay(path);
  const subjects = faults.recordedRequests(cassette.entries);
  const requestLines = listMessages(cassette.entries).filter((m) =>
    m.dir === "c2s" && m.kind === "request"
  ).map((m) => m.line);
  return faults.dryRunFaults(overlay, subjects).map(({ entry, hits }) => ({
    entry,
    hits: hits.map((hit) => ({ ...hit, line: requestLines[hit.index] ?? 0 })),
  }));
}

function formatDryRun(results: readonly FaultDryRun[]): string {
  const lines = ["Faults (dry run over the recorded client requests):"];
  if (results.length === 0) lines.push("  the overlay has no entries");
  for (const { entry, hits } of results) {
    lines.push(`  ${entry}: ${hits.length === 0 ? "would never fire" : `${hits.length} hit(s)`}`);
    for (const hit of hits) {
      lines.push(
        `    request #${hit.index} ${hit.method}${
          hit.name ? ` ${hit.name}` : ""
        } (line ${hit.line})`,
      );
    }
  }
  return lines.join("\n") + "\n";
}

/** The `inspect` command. */
export const command: Command = {
  name: "inspect",
  summary:
    "Summarise a cassette: header, sessions, per-method counts and latency, server-initiated traffic",
  usage:
    "inspect CASSETTE [--timeline] [--grep TEXT] [--faults FILE] [--format text|json] | inspect --report REPORT | inspect --explain-config",
  description:
    "Prints the header, the sessions, per-method counts with p50/p95/max latency (request to " +
    "response, paired by id within a session), and the traffic the server started (its requests, and " +
    "whether the client answered each; its notifications). --timeline lists every entry; --grep keeps " +
    "the entries whose JSON contains TEXT (and implies --timeline). --faults dry-runs a fault overlay " +
    "over the recorded requests. --format json is deterministic: the same file gives the same bytes. " +
    "--explain-config prints every setting of mcp-cassette.toml's sections, its value and where it came " +
    "from (env, file:line or default), and checks the whole file. --report REPORT prints the journal of " +
    "a replay report (`replay --report` or `--run-log`): every live request in arrival order, its " +
    "session, how it was answered and the cassette line that answered it.",
  options: INSPECT_OPTIONS,
  async run({ values, positionals }) {
    if (flag(values, "explain-config")) {
      await printOut(await explainConfig());
      return ExitCode.Ok;
    }
    const format = stringOption(values, "format") ?? "text";
    if (format !== "text" && format !== "json") {
      throw new UsageError(`--format must be text or json, not "${format}"`);
    }
    const reportPath = stringOption(values, "report");
    if (reportPath !== undefined) {
      if (positionals.length > 0) throw new UsageError("inspect --report takes no CASSETTE");
      const journal = await readReportJournal(reportPath);
      await printOut(
        format === "json"
          ? stableStringify(journal) + "\n"
          : formatJournalText(journal, reportPath),
      );
      return ExitCode.Ok;
    }
    if (positionals.length !== 1) throw new UsageError("inspect takes exactly one CASSETTE");
    const path = positionals[0];
    const grep = stringOption(values, "grep");
    const showTimeline = flag(values, "timeline") || grep !== undefined;
    const faultsPath = stringOption(values, "faults");
    // The fault dry run needs the recorded requests whole; everything else streams the file.
    const cassette = faultsPath ? await loadCassette(path) : undefined;
    const faults = cassette && faultsPath ? await dryRun(cassette, faultsPath) : undefined;
    const report = (): Promise<InspectReport> | InspectReport =>
      cassette ? inspectCassette(cassette) : inspectFile(path);
    const rows = (): Promise<TimelineRow[]> | TimelineRow[] =>
      cassette ? timeline(cassette, grep) : timelineOfFile(path, grep);
    if (format === "json") {
      const output: Record<string, unknown> = { ...await report() };
      if (showTimeline) output.timeline = await rows();
      if (faults) output.faults = faults;
      await printOut(stableStringify(output) + "\n");
      return ExitCode.Ok;
    }
    let text = showTimeline ? formatTimelineText(await rows()) : formatReportText(await report());
    if (faults) text += (text.endsWith("\n\n") ? "" : "\n") + formatDryRun(faults);
    await printOut(text);
    return ExitCode.Ok;
  },
};
