/**
 * `mcp-cassette lint`: consistency and security smells in cassettes.
 *
 * @module
 */
import { LINT_OPTIONS } from "../options/lint.ts";
import type { Command } from "../cli/command.ts";
import { stringList, stringOption } from "../cli/command.ts";
import { colorEnabled, paintLines, printOut } from "../cli/output.ts";
import { ExitCode, UsageError } from "../errors/errors.ts";
import { atLeast, knownRules, lintFile, loadPack, readBaseline } from "../lint/mod.ts";
import type { Finding, LintBaseline, PatternRule, Severity } from "../lint/mod.ts";
import { parseDuration } from "../modes/expiry.ts";
import { formatJson, formatSarif, formatText } from "../lint/report.ts";

/** Splits repeatable, comma-separated values. */
function list(values: string[]): string[] {
  return values.flatMap((value) => value.split(",")).map((value) => value.trim()).filter((value) =>
    value !== ""
  );
}

/** How the text report is coloured: by severity, the clean line and the tally. */
const LINT_COLOURS = [
  [/^\S+:\d+: error /, "red"],
  [/^\S+:\d+: warning /, "yellow"],
  [/: clean, no findings$/, "green"],
  [/ — failing \(--fail-on/, "bold"],
] as const;

/** The `lint` command. */
export const command: Command = {
  name: "lint",
  summary:
    "Check cassettes for inconsistencies and prompt-injection smells in what the server said",
  usage:
    "lint CASSETTE… [--baseline OLD] [--select IDS] [--ignore IDS] [--pack FILE] [--fail-on error|warning] [--format text|json|sarif] [--max-age DURATION]",
  description:
    "Checks each cassette's header against its frames (era, transport, protocol version, server " +
    "info), the traffic itself (orphan responses, duplicate ids, unanswered requests, a torn last line), and " +
    "everything the server said (names, descriptions, schemas, results) for instructions aimed at the model, " +
    "requests to hide things from the user, hidden-emphasis tags, invisible or bidi Unicode, look-alike names, " +
    "secret-shaped strings and duplicate tools. With --baseline, a description or schema that changed since " +
    "then is an error (a rug pull). With --max-age, a cassette recorded longer ago is an error (MCL010). Defaults come from [lint] in the nearest mcp-cassette.toml (docs/config.md). Exit 0 when nothing " +
    "reaches --fail-on, 4 when something does. Rules: docs/lint.md.",
  options: LINT_OPTIONS,
  async run({ values, positionals }) {
    if (positionals.length === 0) throw new UsageError("lint needs at least one CASSETTE");
    // [lint] of mcp-cassette.toml is already in `values` (src/config/), under the flags.
    const failOn = stringOption(values, "fail-on") ?? "error";
    if (failOn !== "error" && failOn !== "warning") {
      throw new UsageError(`--fail-on must be "error" or "warning", not "${failOn}"`);
    }
    const format = stringOption(values, "format") ?? "text";
    if (format !== "text" && format !== "json" && format !== "sarif") {
      throw new UsageError(`--format must be text, json or sarif, not "${format}"`);
    }
    const packs: PatternRule[] = [];
    for (const path of list(stringList(values, "pack"))) {
      packs.push(...await loadPack(path));
    }
    const select = list(stringList(values, "select"));
    const ignore = list(stringList(values, "ignore"));
    const baselinePath = stringOption(values, "baseline");
    // Streamed: each file's lines pass once, only findings and listed items stay.
    const baseline: LintBaseline | undefined = baselinePath
      ? await readBaseline(baselinePath)
      : undefined;
    const maxAge = stringOption(values, "max-age");
    const maxAgeMs = maxAge === undefined ? undefined : parseDuration(maxAge, "--max-age");
    const findings: Finding[] = [];
    for (const path of positionals) {
      findings.push(...await lintFile(path, { packs, baseline, select, ignore, maxAgeMs }));
    }
    const threshold = failOn as Severity;
    const text = format === "json"
      ? formatJson(findings, positionals, threshold)
      : format === "sarif"
      ? formatSarif(findings, knownRules(packs))
      : paintLines(
        formatText(findings, positionals, threshold),
        LINT_COLOURS,
        colorEnabled("stdout"),
      );
    await printOut(text);
    return findings.some((finding) => atLeast(finding.severity, threshold))
      ? ExitCode.Findings
      : ExitCode.Ok;
  },
};
