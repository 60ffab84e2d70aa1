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

/** A long list of rules folds away behind its count. */
function redactionField(rules: readonly string[]): string {
  if (rules.length <= 3) return field("redaction", rules.length > 0 ? rules.join(", ") : "none");
  return `<dt>redaction</dt><dd><details><summary>${rules.length} rules</summary>${
    escapeHtml(rules.join(", "))
  }</details></dd>`;
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
      redactionField(glance.redaction),
      field("imported from", glance.importedFrom),
      field(
        "torn last line",
        glance.tornLine === undefined ? undefined : `line ${glance.tornLine}`,
      ),
    ].join("")
  }</dl></section>`;
}

/** The span every latency chart of a page shares, so rows compare at a glance. */
export interface ChartScale {
  /** The slowest answer of the page, in milliseconds. */
  max: number;
}

const CHART_WIDTH = 150;
const CHART_FLOOR_MS = 0.1;

/** Where `ms` falls on the shared logarithmic axis, 0 to CHART_WIDTH. */
function chartX(ms: number, scale: ChartScale): number {
  const span = Math.log10(Math.max(scale.max, CHART_FLOOR_MS * 10) / CHART_FLOOR_MS);
  const at = Math.log10(Math.max(ms, CHART_FLOOR_MS) / CHART_FLOOR_MS) / span;
  return 2 + Math.min(1, at) * (CHART_WIDTH - 4);
}

/**
 * A strip of one tick per answer on a logarithmic axis shared by the page
 * (0.1 ms to its slowest answer): a cluster is typical, a tick far right is
 * a slow call; the bar spans p50 to p95.
 */
export function latencyChart(latencies: readonly number[], scale: ChartScale): string {
  if (latencies.length === 0) return `<span class="muted">no answers</span>`;
  const height = 22;
  const sorted = [...latencies].sort((a, b) => a - b);
  const p50 = chartX(nearestRank(sorted, 50), scale);
  const p95 = chartX(nearestRank(sorted, 95), scale);
  // Thousands of ticks at one pixel add nothing: one per distinct half pixel.
  const xs = [...new Set(sorted.map((ms) => Math.round(chartX(ms, scale) * 2) / 2))];
  const opacity = Math.max(0.25, Math.min(0.9, 6 / Math.sqrt(sorted.length)));
  const ticks = xs.map((x) => `<line x1="${x}" x2="${x}" y1="4" y2="${height - 4}"/>`).join("");
  const title = `${sorted.length} answer(s): p50 ${formatMs(nearestRank(sorted, 50))}, p95 ${
    formatMs(nearestRank(sorted, 95))
  }, max ${formatMs(sorted[sorted.length - 1])}; axis 0.1 ms to ${
    formatMs(scale.max)
  }, logarithmic`;
  return `<svg class="chart" width="${CHART_WIDTH}" height="${height}" viewBox="0 0 ${CHART_WIDTH} ${height}" role="img" aria-label="${
    escapeHtml(title)
  }"><title>${escapeHtml(title)}</title>` +
    `<line class="axis" x1="0" x2="${CHART_WIDTH}" y1="${height / 2}" y2="${height / 2}"/>` +
    `<rect class="iqr" x="${p50.toFixed(1)}" y="${height / 2 - 3}" width="${
      Math.max(2, p95 - p50).toFixed(1)
    }" height="6"/>` +
    `<g class="ticks" stroke-opacity="${opacity.toFixed(2)}">${ticks}</g></svg>`;
}

function statsRow(stats: CallStats, filterKind: "method" | "tool", scale: ChartScale): string {
  const sorted = [...stats.latencies].sort((a, b) => a - b);
  const cell = (p: number) => sorted.length > 0 ? formatMs(nearestRank(sorted, p)) : "";
  const who = stats.dir === "c2s" ? "client" : "server";
  const kind = stats.kind === "notification" ? "notification" : "request";
  return `<tr data-${filterKind}="${escapeHtml(stats.label)}" title="show only these frames">` +
    `<td class="name">${escapeHtml(stats.label)}</td><td class="kind">${who} ${kind}</td>` +
    `<td class="num">${stats.count}</td><td class="num">${stats.errors || ""}</td>` +
    `<td class="num">${cell(50)}</td><td class="num">${cell(95)}</td>` +
    `<td class="num">${sorted.length > 0 ? formatMs(sorted[sorted.length - 1]) : ""}</td>` +
    `<td>${stats.kind === "request" ? latencyChart(stats.latencies, scale) : ""}</td></tr>`;
}

function statsTable(
  title: string,
  rows: CallStats[],
  filterKind: "method" | "tool",
  scale: ChartScale,
): string {
  if (rows.length === 0) return "";
  return `<div class="stats"><h2>${escapeHtml(title)}</h2><table><thead><tr>` +
    `<th>${filterKind}</th><th>kind</th><th>count</th><th>errors</th><th>p50</th><th>p95</th>` +
    `<th>max</th><th>latency</th></tr></thead><tbody>${
      rows.map((row) => statsRow(row, filterKind, scale)).join("")
    }</tbody></table></div>`;
}

/** The per-method and per-tool tables. */
export function statsSection(summary: ViewSummary): string {
  let max = 0;
  for (const stats of summary.methods) for (const ms of stats.latencies) max = Math.max(max, ms);
  const scale = { max };
  return `<section id="stats">${statsTable("Per method", summary.methods, "method", scale)}${
    statsTable("Per tool", summary.tools, "tool", scale)
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
      : `closest recording: <a href="#frame-${miss.closestLine}">line ${miss.closestLine}</a>`;
    const path = miss.path ? `, differing at <code>${escapeHtml(miss.path)}</code>` : "";
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
