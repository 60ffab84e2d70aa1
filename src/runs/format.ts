/**
 * `runs` as people read it: a table for the terminal and Markdown for a CI
 * summary. A tool the recording never saw is marked `!` in both, and named
 * again below the table. Names come from reports, so control characters are
 * escaped before they reach a terminal.
 *
 * @module
 */
import { visible } from "../text/visible.ts";
import type { RunsReport, ToolRow } from "./compare.ts";

/** The mark of a tool the recording never saw. */
export const UNRECORDED_MARK = "!";

function driftText(row: ToolRow, known: boolean): string {
  if (!known) return "unknown";
  if (row.compared === 0) return "-";
  if (row.drift.length === 0) return "none";
  return row.drift.map((d) => `${visible(d.path)} (${d.count} of ${row.compared})`).join(", ");
}

function toolCells(report: RunsReport, row: ToolRow): string[] {
  const name = visible(row.name) + (row.unrecorded ? ` ${UNRECORDED_MARK}` : "");
  const misses = row.misses.reduce((a, b) => a + b, 0);
  return [name, ...row.calls.map(String), String(misses), driftText(row, report.drift.known)];
}

function runLines(report: RunsReport): string[] {
  return report.runs.map((run, i) => {
    const extra = [
      run.orderChanged ? "order differs from run 1" : "",
      run.unrecordedTools.length > 0
        ? `called tools the recording never saw: ${run.unrecordedTools.map(visible).join(", ")}`
        : "",
    ].filter(Boolean);
    const said = extra.length > 0 ? ` - ${extra.join("; ")}` : "";
    return `run ${i + 1}: ${
      visible(run.file)
    } (${run.calls} tool call(s), ${run.misses} miss(es), ` +
      `order: ${run.order.map(visible).join(" > ") || "none"})${said}`;
  });
}

function padded(rows: string[][]): string[] {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((row) => row[i].length)));
  return rows.map((row) => row.map((cell, i) => cell.padEnd(widths[i])).join("  ").trimEnd());
}

function header(report: RunsReport): string[] {
  return ["tool", ...report.runs.map((_, i) => `run ${i + 1}`), "misses", "argument drift"];
}

/** The table: one row per tool, a column per run, then a line per run and the notes. */
export function formatTable(report: RunsReport): string {
  const lines = [...runLines(report), ""];
  if (report.tools.length === 0) lines.push("no tool was called in any run");
  else {lines.push(...padded([
      header(report),
      ...report.tools.map((row) => toolCells(report, row)),
    ]));}
  if (report.tools.some((row) => row.unrecorded)) {
    lines.push("", `${UNRECORDED_MARK} = a tool the recording never saw`);
  }
  for (const note of report.notes) lines.push(`note: ${visible(note)}`);
  return lines.join("\n") + "\n";
}

function cell(text: string): string {
  return visible(text).replace(/[|\\`*_<>[\]]/g, (char) => `\\${char}`);
}

/** Markdown for a CI summary: a table per tool, the runs, the notes. */
export function formatMarkdown(report: RunsReport): string {
  const head = header(report);
  const lines = [`## mcp-cassette runs: ${report.runs.length} run(s) compared`, ""];
  if (report.tools.length > 0) {
    lines.push(`| ${head.join(" | ")} |`, `|${head.map(() => " --- ").join("|")}|`);
    for (const row of report.tools) {
      const cells = toolCells(report, row).map(cell);
      if (row.unrecorded) cells[0] = `**${cell(row.name)}** ⚠️ never recorded`;
      lines.push(`| ${cells.join(" | ")} |`);
    }
  } else lines.push("No tool was called in any run.");
  lines.push("");
  runLines(report).forEach((line) => lines.push(`- ${cell(line)}`));
  for (const note of report.notes) lines.push(`- note: ${cell(note)}`);
  return lines.join("\n") + "\n";
}
