/**
 * `mcp-cassette diff`: how the server surface moved between two recordings.
 *
 * @module
 */
import { DIFF_OPTIONS } from "../options/diff.ts";
import type { Command } from "../cli/command.ts";
import { flag, stringOption } from "../cli/command.ts";
import { colorEnabled, paintLines, printOut } from "../cli/output.ts";
import { diffFiles, formatDiffText } from "../diff/mod.ts";
import { ExitCode, UsageError } from "../errors/errors.ts";
import { stableStringify } from "../json/values.ts";

/** How the text report is coloured: breaking changes red, additions green, the rest yellow. */
const DIFF_COLOURS = [
  [/BREAKING\)$|\[breaking\]/, "red"],
  [/^\+ /, "green"],
  [/^[-~] /, "yellow"],
  [/: surface unchanged$/, "green"],
] as const;

/** The `diff` command. */
export const command: Command = {
  name: "diff",
  summary: "Compare the server surface (tools, prompts, resources, templates) of two cassettes",
  usage: "diff OLD NEW [--tools-only] [--format text|json]",
  description:
    "Lists the tools, prompts, resources and resource templates added, removed or changed between " +
    "two recordings, with schema changes down to the field, each marked breaking or not (a new required " +
    "parameter, a removed tool or a narrowed type breaks callers; a new optional parameter or a changed " +
    "description does not). Exit 5 when the surface moved, 0 when it did not.",
  options: DIFF_OPTIONS,
  async run({ values, positionals }) {
    if (positionals.length !== 2) throw new UsageError("diff takes two cassettes: OLD NEW");
    const format = stringOption(values, "format") ?? "text";
    if (format !== "text" && format !== "json") {
      throw new UsageError(`--format must be text or json, not "${format}"`);
    }
    const [oldPath, newPath] = positionals;
    // Streamed: only each file's listed items are kept.
    const diff = await diffFiles(oldPath, newPath, { toolsOnly: flag(values, "tools-only") });
    await printOut(
      format === "json"
        ? stableStringify(diff) + "\n"
        : paintLines(formatDiffText(diff), DIFF_COLOURS, colorEnabled("stdout")),
    );
    return diff.changed ? ExitCode.SurfaceChanged : ExitCode.Ok;
  },
};
