/**
 * `mcp-cassette prune`: remove the recorded exchanges no run asked for.
 *
 * @module
 */
import { PRUNE_OPTIONS } from "../options/prune.ts";
import type { Command } from "../cli/command.ts";
import { flag, stringList, stringOption } from "../cli/command.ts";
import { printErr, printOut } from "../cli/output.ts";
import { ExitCode, UsageError } from "../errors/errors.ts";
import { planPrune, prunedText } from "../prune/mod.ts";
import type { RemovedExchange } from "../prune/mod.ts";
import { writeAside } from "../view/reports.ts";

function describe(exchange: RemovedExchange): string {
  const extra = exchange.lines.length - 1;
  return `  line ${exchange.line}: ${exchange.method}${exchange.name ? ` ${exchange.name}` : ""}${
    extra > 0 ? ` (+${extra} line${extra === 1 ? "" : "s"} it brought)` : ""
  }`;
}

/** The `prune` command. */
export const command: Command = {
  name: "prune",
  summary: "Remove the recorded exchanges that none of the given runs' reports asked for",
  usage:
    "prune CASSETTE [--report REPORT.json|FOLDER...] [--optional TOOL|LINE...] [-o OUT] [--dry-run]",
  description:
    "Reads the JSON reports of runs against the cassette (`replay --report`, or a folder such as the " +
    "one the test helpers fill when MCP_CASSETTE_REPORT_DIR is set, whose reports of other cassettes " +
    "are passed over) and removes every recorded " +
    "request no run asked for, with its answer and everything the server sent for it (progress, logs, " +
    "its own requests and their answers, the HTTP exchange that carried it). The header, the session " +
    "starts and ends, the lifecycle (initialize, notifications/initialized, server/discover) and client " +
    "notifications stay. The result is written to a side file beside OUT and renamed over OUT (without -o, over the " +
    "cassette). --dry-run prints what would go and writes nothing. A report of another cassette is " +
    'refused (exit 2). --optional marks recordings `"optional": true` (a tool, prompt or resource ' +
    "name marks its every recorded request, a number the request on that cassette line): they are " +
    "kept, and may go unplayed without a finding (expectAllPlayed, --fail-on-unplayed, the report's " +
    "unplayed list); a recording already marked is never pruned. --optional works without --report.",
  options: PRUNE_OPTIONS,
  async run({ values, positionals }) {
    if (positionals.length !== 1) throw new UsageError("prune takes exactly one CASSETTE");
    const [cassette] = positionals;
    const plan = await planPrune(cassette, stringList(values, "report"), {
      optional: stringList(values, "optional"),
    });
    const dryRun = flag(values, "dry-run");
    const output = stringOption(values, "output") ?? cassette;
    const lines = plan.removed.map(describe);
    const verb = dryRun ? "Would remove" : "Removed";
    const total = plan.cassette.entries.length;
    const summary =
      `${verb} ${plan.removed.length} recorded exchange(s), ${plan.dropLines.size} of ${total} entries, from ${cassette} (${plan.reports.files.length} report(s))`;
    if (plan.marked.length > 0) {
      lines.push(`${dryRun ? "Would mark" : "Marked"} optional: line ${plan.marked.join(", ")}`);
    }
    if (!dryRun) {
      await writeAside(output, await prunedText(plan));
      if (plan.cassette.torn) {
        printErr(`${cassette}:${plan.cassette.torn.line}: dropped the torn last line`);
      }
    }
    await printOut(
      [summary + (plan.removed.length > 0 ? ":" : ""), ...lines].join("\n") +
        (dryRun || output === cassette ? "\n" : `\nWrote ${output}\n`),
    );
    return ExitCode.Ok;
  },
};
