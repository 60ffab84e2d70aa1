/**
 * Renders a {@linkcode CheckReport} as text or JSON.
 *
 * @module
 */
import type { CheckReport, SurfaceCounts } from "./run.ts";
import { paint } from "../text/paint.ts";
import type { Style } from "../text/paint.ts";

function count(value: number | null): string {
  return value === null ? "-" : String(value);
}

/** The surface counts on one line; `-` marks an undeclared capability. */
export function formatCounts(counts: SurfaceCounts): string {
  return `tools ${count(counts.tools)}, resources ${count(counts.resources)}, ` +
    `resource templates ${count(counts.resourceTemplates)}, prompts ${count(counts.prompts)}`;
}

/** The console report; `color` adds ANSI colours to severities and the result. */
export function formatCheckText(report: CheckReport, options: { color?: boolean } = {}): string {
  const color = options.color ?? false;
  const severity = (text: string): Style => (text === "error" ? "red" : "yellow");
  const errors = report.findings.filter((finding) => finding.severity === "error").length;
  const warnings = report.findings.length - errors;
  const lines = [
    `server: ${report.server.name} ${report.server.version}`,
    `protocol: ${report.protocolVersion}`,
    `surface: ${formatCounts(report.counts)}`,
    `findings: ${errors} error(s), ${warnings} warning(s)`,
    ...report.findings.map((finding) =>
      `  ${
        paint(finding.severity.padEnd(7), severity(finding.severity), color)
      } ${finding.where}: ${finding.message}`
    ),
    `result: ${paint(report.result, report.result === "PASS" ? "green" : "red", color)}`,
  ];
  return lines.join("\n") + "\n";
}

/** The JSON report (stable key order). */
export function formatCheckJson(report: CheckReport): string {
  return JSON.stringify(report, null, 2) + "\n";
}
