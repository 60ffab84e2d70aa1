/**
 * The static parts of the viewer page, rendered to HTML here: the header at
 * a glance, the per-method and per-tool tables with their latency charts
 * (inline SVG), and what the reports said.
 *
 * @module
 */
import type { MergedReports } from "./reports.ts";
import { verdictOf } from "./reports.ts";
import type { CallStats, HeaderGlance, ViewSummary } from "./summary.ts";
import { nearestRank } from "./summary.ts";

/** Escapes text for HTML content and attribute values. */
export function escapeHtml(text: string): string {
  return text.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;").replaceAll("'", "&#39;");
}

/** Milliseconds, readable: 0.4 ms, 12 ms, 3.2 s. */
export function formatMs(ms: number): string {
  if (ms >= 10_000) return `${(ms / 1000).toFixed(1)} s`;
  if (ms >= 1000) return `${(ms / 1000).toFixed(2)} s`;
  if (ms >= 10) return `${Math.round(ms)} ms`;
  return `${Math.round(ms * 10) / 10} ms`;
}

function field(name: string, value: string | undefined): string {
  if (value === undefined || value === "") return "";
  return `<dt>${escapeHtml(name)}</dt><dd>${escapeHtml(value)}</dd>`;
}

/** The header at a glance. */
export function glanceSection(glance: HeaderGlance): string {
  const sessions = glance.sessions.length === 1
    ? "1"
    : `${glance.sessions.length} (${glance.sessions.slice(0, 8).join(", ")}${
      glance.sessions.length > 8 ? ", …" : ""
    })`;
  return `<section id="glance"><dl>${
    [
      field("server", glance.server),
      field("server says", glance.serverName),
      field("transport", glance.transport),
      field("era", glance.era),
      field("protocol", glance.protocolVersion),
      field("recorded", glance.created),
      field("sessions", sessions),
      field("duration", formatMs(glance.durationMs)),
      field("entries", String(glance.entries)),
      field("redaction", glance.redaction.length > 0 ? glance.redaction.join(", ") : "none"),
      field("imported from", glance.importedFrom),
      field(
        "torn last line",
        glance.tornLine === undefined ? undefined : `line ${glance.tornLine}`,
      ),
    ].join("")
  }</dl></section>`;
}

/**
 * A small histogram of latencies: 16 bins on a square-root scale, so one slow
 * call does not squash every other bar into the first bin.
 */
export function latencyChart(latencies: readonly number[]): string {
  if (latencies.length === 0) return `<span class="muted">no answers</span>`;
  const width = 128;
  const height = 28;
  const bins = 16;
  const max = Math.max(1e-6, latencies.reduce((a, b) => Math.max(a, b), 0));
  const counts = new Array<number>(bins).fill(0);
  for (const value of latencies) {
    counts[Math.min(bins - 1, Math.floor(Math.sqrt(value / max) * bins))]++;
  }
  const top = Math.max(...counts);
  const bar = width / bins;
  const rects = counts.map((n, i) => {
    if (n === 0) return "";
    const h = Math.max(1.5, (n / top) * (height - 2));
    return `<rect x="${(i * bar + 0.5).toFixed(1)}" y="${(height - h).toFixed(1)}" width="${
      (bar - 1).toFixed(1)
    }" height="${h.toFixed(1)}"><title>${n}</title></rect>`;
  }).join("");
  return `<svg class="chart" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" role="img" aria-label="latency histogram, 0 to ${
    escapeHtml(formatMs(max))
  }">${rects}</svg>`;
}

function statsRow(stats: CallStats, filterKind: "method" | "tool"): string {
  const sorted = [...stats.latencies].sort((a, b) => a - b);
  const cell = (p: number) => sorted.length > 0 ? formatMs(nearestRank(sorted, p)) : "";
  const who = stats.dir === "c2s" ? "client" : "server";
  return `<tr data-${filterKind}="${escapeHtml(stats.label)}" title="show only these frames">` +
    `<td class="name">${escapeHtml(stats.label)}</td><td>${who} ${stats.kind}</td>` +
    `<td class="num">${stats.count}</td><td class="num">${stats.errors || ""}</td>` +
    `<td class="num">${cell(50)}</td><td class="num">${cell(95)}</td>` +
    `<td class="num">${sorted.length > 0 ? formatMs(sorted[sorted.length - 1]) : ""}</td>` +
    `<td>${stats.kind === "request" ? latencyChart(stats.latencies) : ""}</td></tr>`;
}

function statsTable(title: string, rows: CallStats[], filterKind: "method" | "tool"): string {
  if (rows.length === 0) return "";
  return `<div class="stats"><h2>${escapeHtml(title)}</h2><table><thead><tr>` +
    `<th>${filterKind}</th><th>kind</th><th>count</th><th>errors</th><th>p50</th><th>p95</th>` +
    `<th>max</th><th>latency</th></tr></thead><tbody>${
      rows.map((row) => statsRow(row, filterKind)).join("")
    }</tbody></table></div>`;
}

/** The per-method and per-tool tables. */
export function statsSection(summary: ViewSummary): string {
  return `<section id="stats">${statsTable("Per method", summary.methods, "method")}${
    statsTable("Per tool", summary.tools, "tool")
  }</section>`;
}

/** The report's tallies and its misses, each with a link to the closest recording. */
export function reportSection(reports: MergedReports | undefined): string {
  if (!reports) return "";
  const tally = { played: 0, inexact: 0, repeated: 0, never: 0 };
  for (const use of reports.recorded.values()) tally[verdictOf(use)]++;
  const misses = reports.misses.map((miss) => {
    const closest = miss.closestLine === undefined
      ? "no recording comes close"
      : `closest: <a href="#frame-${miss.closestLine}">line ${miss.closestLine}</a>`;
    const path = miss.path ? ` differs at <code>${escapeHtml(miss.path)}</code>` : "";
    return `<li><span class="badge miss">miss</span> <b>${
      escapeHtml(miss.method)
    }</b> ${closest}${path}` +
      `<div class="muted">${escapeHtml(miss.message)}</div></li>`;
  }).join("");
  return `<section id="report"><h2>Replay report${
    reports.files.length > 1 ? `s (${reports.files.length})` : ""
  }</h2><p>` +
    `<span class="badge played">played</span> ${tally.played} ` +
    `<span class="badge inexact">inexact</span> ${tally.inexact} ` +
    `<span class="badge repeated">repeated</span> ${tally.repeated} ` +
    `<span class="badge never">never asked</span> ${tally.never} ` +
    `<span class="badge miss">live misses</span> ${reports.misses.length}</p>` +
    (misses ? `<ul class="misses">${misses}</ul>` : "") + `</section>`;
}
