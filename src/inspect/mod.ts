/**
 * `inspect`: what a cassette holds. A summary (header, sessions, per-method
 * counts and latency percentiles, server-initiated traffic), a timeline, and
 * a deterministic JSON form (same file, same bytes).
 *
 * @example
 * ```ts
 * const report = inspectCassette(await loadCassette("weather.cassette.jsonl"));
 * console.log(report.methods.map((method) => `${method.method} ${method.count}`));
 * ```
 *
 * @module
 */
import { feedCassette, feedCassetteFile } from "../cassette/entries.ts";
import type { Cassette } from "../cassette/reader.ts";
import { InspectRun, TimelineRun } from "./run.ts";
import type { InspectReport, TimelineRow } from "./types.ts";

export type * from "./types.ts";
export { InspectRun, percentile, TimelineRun } from "./run.ts";

/** Builds the summary of a cassette. */
export function inspectCassette(cassette: Cassette): InspectReport {
  const run = new InspectRun();
  feedCassette(cassette, run);
  return run.finish();
}

/**
 * The summary of the cassette at `path`, streamed: counts and per-request
 * state are kept, the entries are not. Equal to {@linkcode inspectCassette}
 * of the loaded file.
 */
export async function inspectFile(path: string): Promise<InspectReport> {
  const run = new InspectRun();
  await feedCassetteFile(path, run);
  return run.finish();
}

/** The timeline, one row per message (batches opened), optionally only entries whose JSON contains `grep`. */
export function timeline(cassette: Cassette, grep?: string): TimelineRow[] {
  const run = new TimelineRun(grep);
  feedCassette(cassette, run);
  return run.finish();
}

/** The timeline of the cassette at `path`, streamed (only the rows are kept). */
export async function timelineOfFile(path: string, grep?: string): Promise<TimelineRow[]> {
  const run = new TimelineRun(grep);
  await feedCassetteFile(path, run);
  return run.finish();
}

function table(rows: string[][]): string[] {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((row) => row[i].length)));
  return rows.map((row) =>
    "  " + row.map((cell, i) => cell.padEnd(widths[i])).join("  ").trimEnd()
  );
}

const ms = (value: number) => `${Math.round(value * 10) / 10}ms`;

/** The human summary. */
export function formatReportText(report: InspectReport): string {
  const h = report.header;
  // The header names the server when the recorder was told; else its own handshake answer does.
  const named = h.server.name ? h.server : report.serverInfo ?? {};
  const server = [named.name, named.version].filter(Boolean).join(" ") || "(unnamed server)";
  const where = h.server.command ? h.server.command.join(" ") : h.server.url ?? "";
  const lines = [
    `${report.file}${report.importedFrom ? ` (imported from ${report.importedFrom})` : ""}`,
    `  recorded ${h.created} by ${h.recorder}; transport ${h.transport}, era ${h.era ?? "legacy"}` +
    (h.protocolVersion ? `, protocol ${h.protocolVersion}` : ""),
    `  server ${server}${where ? ` (${where})` : ""}`,
    `  ${report.entries} entries, ${report.messages} messages, ${report.sessions.length} session(s)` +
    (report.torn ? `, torn last line ${report.torn.line}` : ""),
    `  surface: ${report.surface.tools} tools, ${report.surface.prompts} prompts, ${report.surface.resources} resources, ${report.surface.templates} templates`,
    "",
    "Sessions:",
    ...table([
      ["session", "messages", "span", "end"],
      ...report.sessions.map((s) => [
        s.session + (s.sessionId ? ` (${s.sessionId})` : ""),
        String(s.messages),
        `${ms(s.firstT)}–${ms(s.lastT)}`,
        s.exitCode !== undefined ? `exit ${s.exitCode}` : s.endReason ?? "",
      ]),
    ]),
    "",
    "Methods:",
    ...table([
      ["method", "dir", "kind", "count", "answered", "errors", "p50", "p95", "max"],
      ...report.methods.map((m) => [
        m.method,
        m.dir,
        m.kind,
        String(m.count),
        m.kind === "request" ? String(m.answered) : "",
        m.kind === "request" ? String(m.errors) : "",
        m.latency ? ms(m.latency.p50) : "",
        m.latency ? ms(m.latency.p95) : "",
        m.latency ? ms(m.latency.max) : "",
      ]),
    ]),
  ];
  const { requests, notifications } = report.serverInitiated;
  lines.push("", "Server-initiated:");
  if (requests.length === 0 && notifications.length === 0) lines.push("  none");
  for (const r of requests) {
    lines.push(
      `  request ${r.method} id ${JSON.stringify(r.id)} (session ${r.session}, line ${r.line}): ${
        r.answered ? "answered by the client" : "NOT answered"
      }`,
    );
  }
  for (const n of notifications) lines.push(`  notification ${n.method} ×${n.count}`);
  return lines.join("\n") + "\n";
}

/** Timeline rows as aligned text. */
export function formatTimelineText(rows: readonly TimelineRow[]): string {
  if (rows.length === 0) return "no matching entries\n";
  return table([
    ["t", "session", "dir", "kind", "method/id", "line"],
    ...rows.map((r) => [ms(r.t), r.session, r.dir, r.kind, r.what, String(r.line)]),
  ]).map((line) => line.slice(2)).join("\n") + "\n";
}
