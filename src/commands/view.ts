/**
 * `mcp-cassette view`: a cassette as one self-contained HTML page.
 *
 * @module
 */
import { VIEW_OPTIONS } from "../options/view.ts";
import type { Command } from "../cli/command.ts";
import { stringList, stringOption } from "../cli/command.ts";
import { printOut } from "../cli/output.ts";
import { ExitCode, UsageError } from "../errors/errors.ts";
import { runtime } from "../runtime/mod.ts";
import { renderCassettePage } from "../view/mod.ts";
import { writeAside } from "../view/reports.ts";

/** Where the page goes without `-o`: beside the cassette, `.jsonl` swapped for `.html`. */
export function defaultPagePath(cassette: string): string {
  return cassette.replace(/\.jsonl$/i, "") + ".html";
}

/** The `view` command. */
export const command: Command = {
  name: "view",
  summary: "Write a cassette as one self-contained HTML page: timeline, stats, frames, reports",
  usage: "view CASSETTE [-o FILE.html] [--report REPORT.json]...",
  description:
    "Writes one HTML file (style, script and the cassette's entries inline; it fetches nothing and " +
    "opens from disk offline): the header at a glance, counts and a latency chart per method and per " +
    "tool, and a timeline of every frame in a client lane and a server lane, requests joined to their " +
    "answers with the time each took drawn to scale. Each frame opens into highlighted JSON; filter by " +
    "method, tool or text; #frame-N links to cassette line N. With --report (what `replay --report` " +
    "and the test helpers write) each recorded request is marked played, inexact, repeated or never " +
    "asked, and each live miss is listed with its closest recording. A report written for another " +
    "cassette is refused (exit 2) and nothing is written.",
  options: VIEW_OPTIONS,
  async run({ values, positionals }) {
    if (positionals.length !== 1) throw new UsageError("view takes exactly one CASSETTE");
    const [cassette] = positionals;
    const output = stringOption(values, "output") ?? defaultPagePath(cassette);
    if (output === cassette) {
      throw new UsageError(`-o ${output} would overwrite the cassette itself`);
    }
    const html = await renderCassettePage(cassette, stringList(values, "report"));
    await writeAside(output, html);
    const size = (await runtime.stat(output))?.size ?? html.length;
    await printOut(`Wrote ${output} (${Math.round(size / 1024)} KB)\n`);
    return ExitCode.Ok;
  },
};
