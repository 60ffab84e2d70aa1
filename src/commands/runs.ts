/**
 * `mcp-cassette runs`: compare what the agents of several runs called.
 *
 * @module
 */
import { RUNS_OPTIONS } from "../options/runs.ts";
import type { Command } from "../cli/command.ts";
import { stringOption } from "../cli/command.ts";
import { printOut } from "../cli/output.ts";
import { ExitCode, UsageError } from "../errors/errors.ts";
import { compareReports, formatMarkdown, formatTable } from "../runs/mod.ts";
import { runtime } from "../runtime/mod.ts";

/** The `runs` command. */
export const command: Command = {
  name: "runs",
  summary: "Compare the tools the agents of several runs called, from their replay reports",
  usage: "runs [REPORT.json|FOLDER...] [--cassette CASSETTE] [--format table|json|markdown]",
  description:
    "Reads the JSON reports of several runs of one test, or of one test under several models " +
    "(`replay --report`, or a folder such as the one the test helpers fill when " +
    "MCP_CASSETTE_REPORT_DIR is set; with no REPORT that folder is read), and compares their " +
    "journals: per tool, how often each run called it and how many calls no recording answered; " +
    "the order each run first called its tools in, and whether it differs from the first run's; " +
    "and which argument paths differed from the recorded request that answered each call, and how " +
    "often, against --cassette or, without it, the cassette the reports name by path (for a report " +
    "of another cassette, or one that names none, drift is unknown and a note says why; a named " +
    "cassette that is gone or no longer has the report's header hash is refused, exit 2). " +
    "A tool a run called that its recording never saw is marked `!`. " +
    "Reports of different cassettes are compared, and a note says so. --format markdown suits a " +
    "CI job summary. A file that is not a replay report, or no report at all, is refused (exit 2).",
  options: RUNS_OPTIONS,
  async run({ values, positionals }) {
    const format = stringOption(values, "format") ?? "table";
    if (!["table", "json", "markdown"].includes(format)) {
      throw new UsageError(
        `--format must be table, json or markdown, not ${JSON.stringify(format)}`,
      );
    }
    const folder = runtime.env("MCP_CASSETTE_REPORT_DIR");
    const paths = positionals.length > 0 ? positionals : folder ? [folder] : [];
    const report = await compareReports(paths, { cassette: stringOption(values, "cassette") });
    const text = format === "json"
      ? JSON.stringify(report, null, 2) + "\n"
      : format === "markdown"
      ? formatMarkdown(report)
      : formatTable(report);
    await printOut(text);
    return ExitCode.Ok;
  },
};
