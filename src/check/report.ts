/**
 * Renders a {@linkcode CheckReport} as text or JSON.
 *
 * @module
 */
import type { CheckReport, SurfaceCounts } from "./run.ts";

function count(value: number | null): string {
  return value === null ? "-" : String(value);
}

/** The surface counts on one line; `-` marks an undeclared capability. */
export function formatCounts(counts: SurfaceCounts): string {
  return `tools ${count(counts.tools)}, resources ${count(counts.resources)}, ` +
    `resource templates ${count(counts.resourceTemplates)}, prompts ${count(counts.prompts)}`;
}

/** The console report. */
export function formatCheckText(report: CheckReport): string {
  const errors = report.findings.filter((finding) => finding.severity === "error").length;
  const warnings = report.findings.length - errors;
  const lines = [
    `server: ${report.server.name} ${report.server.version}`,
    `protocol: ${report.protocolVersion}`,
    `surface: ${formatCounts(report.counts)}`,
    `findings: ${errors} error(s), ${warnings} warning(s)`,
    ...report.findings.map((finding) =>
      `  ${finding.severity.padEnd(7)} ${finding.where}: ${finding.message}`
    ),
    `result: ${report.result}`,
  ];
  return lines.join("\n") + "\n";
}

/** The JSON report (stable key order). */
export function formatCheckJson(report: CheckReport): string {
  return JSON.stringify(report, null, 2) + "\n";
}
