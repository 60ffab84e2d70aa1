/**
 * `view`: one self-contained HTML page of a cassette, for a person who would
 * rather look than read JSONL. The page inlines its style, its script and the
 * cassette's entries; it fetches nothing and opens from disk offline.
 *
 * @example
 * ```ts
 * const html = await renderCassettePage("weather.cassette.jsonl", ["replay-report.json"]);
 * await Deno.writeTextFile("weather.html", html);
 * ```
 *
 * @module
 */
import { loadCassette } from "../cassette/reader.ts";
import type { Cassette, LocatedEntry } from "../cassette/reader.ts";
import { listMessages } from "../surface/mod.ts";
import { PAGE_SCRIPT } from "./page_script.ts";
import { PAGE_STYLE } from "./page_style.ts";
import { loadReports, verdictOf } from "./reports.ts";
import type { MergedReports } from "./reports.ts";
import { escapeHtml, glanceSection, reportSection, statsSection } from "./sections.ts";
import { summarise } from "./summary.ts";

/** What the page's script reads besides the entries, embedded as JSON. */
interface PageMeta {
  /** `[index, line]` wherever an entry's line is not the one after its predecessor's. */
  lineJumps: [number, number][];
  /** How many client sessions: with one, the timeline leaves out its session column. */
  sessions?: number;
  report?: { inexact: number[]; repeated: number[]; never: number[]; unlisted: number[] };
}

/**
 * Makes text safe inside a `<script>` element. Every `<` of a JSON text is
 * inside a string, where `<\/` means the same as `</`, so the page's script
 * parses exactly the recorded values.
 */
function scriptSafe(json: string): string {
  return json.replaceAll("</", "<\\/").replaceAll("<!--", "<\\u0021--");
}

/** The entries, one JSON line each, without the `line` field the reader adds. */
function entryLines(entries: readonly LocatedEntry[]): { text: string; meta: PageMeta } {
  const out: string[] = new Array(entries.length);
  const lineJumps: [number, number][] = [];
  let expected = 2;
  entries.forEach((entry, index) => {
    const { line, ...rest } = entry;
    if (line !== expected) lineJumps.push([index, line]);
    expected = line + 1;
    out[index] = scriptSafe(JSON.stringify(rest));
  });
  return { text: out.join("\n"), meta: { lineJumps } };
}

function reportMarks(cassette: Cassette, reports: MergedReports): NonNullable<PageMeta["report"]> {
  const marks = { inexact: [] as number[], repeated: [] as number[], never: [] as number[] };
  for (const use of reports.recorded.values()) {
    const verdict = verdictOf(use);
    if (verdict !== "played") marks[verdict].push(use.line);
  }
  const requestLines = listMessages(cassette.entries)
    .filter((message) => message.dir === "c2s" && message.kind === "request")
    .map((message) => message.line);
  const unlisted = [...new Set(requestLines)].filter((line) => !reports.recorded.has(line));
  return { ...marks, unlisted };
}

/** Builds the page of a cassette already loaded (and its reports, if any). */
export function renderPage(cassette: Cassette, reports?: MergedReports): string {
  const { text, meta } = entryLines(cassette.entries);
  if (reports) meta.report = reportMarks(cassette, reports);
  const summary = summarise(cassette);
  meta.sessions = summary.glance.sessions.length;
  const title = cassette.path.split(/[\\/]/).pop() ?? cassette.path;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:">
<title>${escapeHtml(title)}: mcp-cassette</title>
<style>${PAGE_STYLE}</style></head>
<body>
<header><h1>${escapeHtml(title)}</h1>${glanceSection(summary.glance)}</header>
${statsSection(summary)}
${reportSection(reports)}
<div id="controls"><input id="q" type="search" placeholder="Filter by text (press /)" aria-label="filter by text">
<select id="method" aria-label="method"><option value="">every method</option></select>
<select id="tool" aria-label="tool"><option value="">every tool</option></select>
<span id="count" class="muted"></span>
<span class="legend"><span class="chip request">\u2192 request</span><span class="chip answer">\u2190 answer</span><span class="chip error">\u2190 error</span><span class="chip server-request">\u21e0 server request</span><span class="chip notification">\u2022 notification</span><span class="chip raw">\u00b6 raw</span><span class="chip session">\u25c6 session</span><span class="chip http">\u2261 http</span></span></div>
<div id="main"><div id="tl" tabindex="0"><div id="tlhead"><span>line</span><span>t</span><span class="ses">session</span><span style="text-align:right">client</span><span>server</span><span>answer took</span><span class="st">report</span></div>
<div id="spacer"><div id="rows"></div></div></div>
<aside id="detail"></aside></div>
<footer>mcp-cassette view \u00b7 frame links: #frame-LINE (the cassette line)</footer>
<script type="application/json" id="mc-meta">${scriptSafe(JSON.stringify(meta))}</script>
<script type="text/plain" id="mc-lines">${text}</script>
<script>${PAGE_SCRIPT}</script>
</body></html>
`;
}

/**
 * Reads a cassette (and the reports of runs against it) and builds its page.
 * A report written for another cassette is refused before anything is built.
 */
export async function renderCassettePage(
  path: string,
  reportFiles: readonly string[] = [],
): Promise<string> {
  const cassette = await loadCassette(path);
  let reports: MergedReports | undefined;
  if (reportFiles.length > 0) {
    reports = await loadReports(reportFiles, cassette);
  }
  return renderPage(cassette, reports);
}
