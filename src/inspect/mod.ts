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
import type { CassetteHeader } from "../cassette/format.ts";
import type { Cassette, LocatedEntry } from "../cassette/reader.ts";
import type { JsonRpcId } from "../jsonrpc.ts";
import {
  DEFAULT_SESSION,
  extractSurface,
  latestItems,
  listMessages,
  pairMessages,
} from "../surface/mod.ts";

/** p50, p95 and max of a set of durations, in milliseconds. */
export interface Percentiles {
  p50: number;
  p95: number;
  max: number;
}

/** Counts for one method in one direction. */
export interface MethodStats {
  method: string;
  dir: "c2s" | "s2c";
  kind: "request" | "notification";
  count: number;
  /** Requests that got an answer (result or error). */
  answered: number;
  /** Answers that were JSON-RPC errors. */
  errors: number;
  /** Request-to-response times of the answered requests. */
  latency?: Percentiles;
}

/** One session of the cassette. */
export interface SessionStats {
  session: string;
  messages: number;
  firstT: number;
  lastT: number;
  sessionId?: string;
  exitCode?: number;
  endReason?: string;
}

/** A request the server sent the client. */
export interface ServerRequest {
  method: string;
  id: JsonRpcId;
  session: string;
  line: number;
  t: number;
  /** Whether the cassette holds the client's answer. */
  answered: boolean;
}

/** The summary. */
export interface InspectReport {
  file: string;
  importedFrom?: string;
  header: CassetteHeader;
  entries: number;
  messages: number;
  torn?: { line: number };
  sessions: SessionStats[];
  methods: MethodStats[];
  serverInitiated: {
    requests: ServerRequest[];
    notifications: { method: string; count: number }[];
  };
  surface: { tools: number; prompts: number; resources: number; templates: number };
}

/** Nearest-rank percentile of sorted values. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return 0;
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[Math.min(sorted.length, rank) - 1];
}

function percentiles(values: number[]): Percentiles {
  const sorted = [...values].sort((a, b) => a - b);
  return {
    p50: percentile(sorted, 50),
    p95: percentile(sorted, 95),
    max: sorted[sorted.length - 1],
  };
}

/** Builds the summary of a cassette. */
export function inspectCassette(cassette: Cassette): InspectReport {
  const messages = listMessages(cassette.entries);
  const { methods, serverRequests } = methodStats(messages);
  const notifications = [...methods.values()]
    .filter((m) => m.dir === "s2c" && m.kind === "notification")
    .map((m) => ({ method: m.method, count: m.count }));
  const items = [...latestItems(extractSurface(cassette.entries, messages)).values()];
  const count = (kind: string) => items.filter((item) => item.kind === kind).length;
  const report: InspectReport = {
    file: cassette.path,
    header: cassette.header,
    entries: cassette.entries.length,
    messages: messages.length,
    sessions: sessionStats(cassette),
    methods: [...methods.values()]
      .map(({ durations, ...rest }) =>
        durations.length > 0 ? { ...rest, latency: percentiles(durations) } : rest
      )
      .sort((a, b) =>
        a.dir.localeCompare(b.dir) || a.method.localeCompare(b.method) ||
        a.kind.localeCompare(b.kind)
      ),
    serverInitiated: { requests: serverRequests, notifications },
    surface: {
      tools: count("tool"),
      prompts: count("prompt"),
      resources: count("resource"),
      templates: count("template"),
    },
  };
  if (cassette.importedFrom) report.importedFrom = cassette.importedFrom;
  if (cassette.torn) report.torn = { line: cassette.torn.line };
  return report;
}

/** Counts, answers, errors and durations per method and direction; the server's own requests. */
function methodStats(messages: ReturnType<typeof listMessages>) {
  const { exchanges } = pairMessages(messages);
  const methods = new Map<string, MethodStats & { durations: number[] }>();
  const stat = (method: string, dir: "c2s" | "s2c", kind: "request" | "notification") => {
    const key = `${dir} ${method}`;
    let entry = methods.get(key);
    if (!entry) {
      methods.set(
        key,
        entry = { method, dir, kind, count: 0, answered: 0, errors: 0, durations: [] },
      );
    }
    return entry;
  };
  for (const message of messages) {
    if (message.kind === "notification") stat(message.method!, message.dir, "notification").count++;
  }
  const serverRequests: ServerRequest[] = [];
  for (const { request, response } of exchanges) {
    const entry = stat(request.method ?? "?", request.dir, "request");
    entry.count++;
    if (response) {
      entry.answered++;
      if (response.kind === "error") entry.errors++;
      entry.durations.push(response.t - request.t);
    }
    if (request.dir === "s2c") {
      serverRequests.push({
        method: request.method ?? "?",
        id: request.id!,
        session: request.session,
        line: request.line,
        t: request.t,
        answered: !!response,
      });
    }
  }
  return { methods, serverRequests };
}

/** Per recorded session: messages, first and last times, its id and how it ended. */
function sessionStats(cassette: Cassette): SessionStats[] {
  const sessions = new Map<string, SessionStats>();
  for (const entry of cassette.entries) {
    const name = entry.session ?? DEFAULT_SESSION;
    let stats = sessions.get(name);
    if (!stats) {
      sessions.set(name, stats = { session: name, messages: 0, firstT: entry.t, lastT: entry.t });
    }
    stats.firstT = Math.min(stats.firstT, entry.t);
    stats.lastT = Math.max(stats.lastT, entry.t);
    if (entry.type === "message") stats.messages += Array.isArray(entry.msg) ? entry.msg.length : 1;
    if (entry.type === "session") {
      if (entry.sessionId !== undefined) stats.sessionId = entry.sessionId;
      if (entry.event === "end" && entry.exitCode !== undefined) stats.exitCode = entry.exitCode;
      if (entry.event === "end" && entry.reason !== undefined) stats.endReason = entry.reason;
    }
  }
  return [...sessions.values()].sort((a, b) =>
    a.firstT - b.firstT || a.session.localeCompare(b.session)
  );
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
  const server = [h.server.name, h.server.version].filter(Boolean).join(" ") || "(unnamed server)";
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

/** One timeline row. */
export interface TimelineRow {
  t: number;
  session: string;
  dir: string;
  kind: string;
  what: string;
  line: number;
}

function rowsOf(entry: LocatedEntry): TimelineRow[] {
  const base = { t: entry.t, session: entry.session ?? DEFAULT_SESSION, line: entry.line };
  switch (entry.type) {
    case "message":
      return listMessages([entry]).map((m) => ({
        ...base,
        dir: m.dir,
        kind: m.kind,
        what: [m.method, m.id !== undefined ? `#${JSON.stringify(m.id)}` : undefined].filter(
          Boolean,
        ).join(" "),
      }));
    case "raw":
      return [{
        ...base,
        dir: entry.dir,
        kind: "raw",
        what: JSON.stringify(entry.text.slice(0, 60)),
      }];
    case "session":
      return [{
        ...base,
        dir: "",
        kind: `session-${entry.event}`,
        what: entry.exitCode !== undefined
          ? `exit ${entry.exitCode}`
          : entry.reason ?? entry.sessionId ?? "",
      }];
    case "http-request":
      return [{
        ...base,
        dir: "c2s",
        kind: "http-request",
        what: `x${entry.x} ${entry.method} ${entry.path}`,
      }];
    case "http-response":
      return [{
        ...base,
        dir: "s2c",
        kind: "http-response",
        what: `x${entry.x} ${entry.status} ${entry.body}`,
      }];
    case "sse-event":
      return [{
        ...base,
        dir: "s2c",
        kind: "sse-event",
        what: `x${entry.x} ${entry.sse.event ?? "message"}`,
      }];
    case "http-end":
      return [{ ...base, dir: "", kind: "http-end", what: `x${entry.x} ${entry.reason}` }];
  }
}

/** The timeline, one row per message (batches opened), optionally only entries whose JSON contains `grep`. */
export function timeline(cassette: Cassette, grep?: string): TimelineRow[] {
  const needle = grep?.toLowerCase();
  return cassette.entries
    .filter((entry) => {
      if (needle === undefined) return true;
      const { line: _line, ...plain } = entry;
      return JSON.stringify(plain).toLowerCase().includes(needle);
    })
    .flatMap(rowsOf);
}

/** Timeline rows as aligned text. */
export function formatTimelineText(rows: readonly TimelineRow[]): string {
  if (rows.length === 0) return "no matching entries\n";
  return table([
    ["t", "session", "dir", "kind", "method/id", "line"],
    ...rows.map((r) => [ms(r.t), r.session, r.dir, r.kind, r.what, String(r.line)]),
  ]).map((line) => line.slice(2)).join("\n") + "\n";
}
