/**
 * Lint output: text for people, JSON for scripts, SARIF 2.1.0 for code
 * scanning. All three are deterministic (sorted, no clock).
 *
 * @module
 */
import { RECORDER_VERSION } from "../cassette/format.ts";
import { stableStringify } from "../json/values.ts";
import type { Finding, RuleInfo, Severity } from "./types.ts";
import { atLeast } from "./types.ts";

/** Counts by severity. */
export function tally(findings: readonly Finding[]): Record<Severity, number> {
  return {
    error: findings.filter((finding) => finding.severity === "error").length,
    warning: findings.filter((finding) => finding.severity === "warning").length,
  };
}

/** One line per finding, then a summary line. */
export function formatText(
  findings: readonly Finding[],
  files: readonly string[],
  failOn: Severity,
): string {
  if (findings.length === 0) {
    return `${files.length === 1 ? files[0] : `${files.length} cassettes`}: clean, no findings\n`;
  }
  const lines = findings.map((finding) =>
    `${finding.file}:${finding.line}: ${finding.severity} ${finding.rule} ${finding.message}${
      finding.pointer ? ` [${finding.pointer}]` : ""
    }`
  );
  const counts = tally(findings);
  const failing = findings.filter((finding) => atLeast(finding.severity, failOn)).length;
  lines.push(
    `${findings.length} finding(s): ${counts.error} error(s), ${counts.warning} warning(s)` +
      (failing > 0 ? ` — failing (--fail-on ${failOn})` : ` — below --fail-on ${failOn}`),
  );
  return lines.join("\n") + "\n";
}

/** The JSON report. */
export function formatJson(
  findings: readonly Finding[],
  files: readonly string[],
  failOn: Severity,
): string {
  const counts = tally(findings);
  return stableStringify({
    version: 1,
    tool: `mcp-cassette/${RECORDER_VERSION}`,
    files: [...files],
    failOn,
    summary: {
      findings: findings.length,
      ...counts,
      failing: findings.filter((f) => atLeast(f.severity, failOn)).length,
    },
    findings,
  }) + "\n";
}

/** SARIF 2.1.0: one run, the rules in the driver, one result per finding. */
export function formatSarif(findings: readonly Finding[], rules: readonly RuleInfo[]): string {
  const used = rules.filter((rule) =>
    findings.some((finding) => finding.rule === rule.id) || rule.origin === "builtin"
  );
  const index = new Map(used.map((rule, i) => [rule.id, i]));
  const log = {
    $schema: "https://json.schemastore.org/sarif-2.1.0.json",
    version: "2.1.0",
    runs: [{
      tool: {
        driver: {
          name: "mcp-cassette",
          version: RECORDER_VERSION,
          informationUri: "https://github.com/mcp-cassette/mcp-cassette/blob/main/docs/lint.md",
          rules: used.map((rule) => ({
            id: rule.id,
            name: rule.name,
            shortDescription: { text: rule.summary },
            defaultConfiguration: { level: rule.severity },
            properties: { origin: rule.origin },
          })),
        },
      },
      results: findings.map((finding) => ({
        ruleId: finding.rule,
        ...(index.has(finding.rule) ? { ruleIndex: index.get(finding.rule) } : {}),
        level: finding.severity,
        message: { text: finding.message },
        locations: [{
          physicalLocation: {
            artifactLocation: { uri: finding.file },
            region: { startLine: Math.max(1, finding.line) },
          },
          logicalLocations: [{ fullyQualifiedName: finding.pointer || "/", kind: "member" }],
        }],
        properties: { pointer: finding.pointer },
      })),
    }],
  };
  return JSON.stringify(log, null, 2) + "\n";
}
