/**
 * What the top of the viewer page shows: the header at a glance, and counts
 * and latencies per method and per tool. Computed here, not in the page, so
 * the page's script only has the timeline to build.
 *
 * @module
 */
import type { Cassette } from "../cassette/reader.ts";
import type { JsonObject } from "../jsonrpc/messages.ts";
import { DEFAULT_SESSION, listMessages, pairMessages, paramsOf } from "../surface/mod.ts";
import { extractSurface } from "../surface/mod.ts";

/** Counts and request-to-answer times of one method (or one tool). */
export interface CallStats {
  /** The method, or for a tool its name. */
  label: string;
  /** `c2s` for what the client asked, `s2c` for what the server asked or said. */
  dir: "c2s" | "s2c";
  kind: "request" | "notification";
  count: number;
  errors: number;
  /** Milliseconds from request to answer, of the answered requests, in recorded order. */
  latencies: number[];
}

/** The header fields the page shows first. */
export interface HeaderGlance {
  server: string;
  serverName?: string;
  transport: string;
  era: string;
  protocolVersion?: string;
  created: string;
  redaction: string[];
  sessions: string[];
  /** From the first entry to the last, in milliseconds. */
  durationMs: number;
  entries: number;
  importedFrom?: string;
  tornLine?: number;
}

/** Everything above the timeline. */
export interface ViewSummary {
  glance: HeaderGlance;
  methods: CallStats[];
  tools: CallStats[];
}

function glanceOf(cassette: Cassette): HeaderGlance {
  const { header, entries } = cassette;
  const identity = extractSurface(entries).server;
  const sessions = [...new Set(entries.map((entry) => entry.session ?? DEFAULT_SESSION))];
  let first = Infinity;
  let last = -Infinity;
  for (const entry of entries) {
    first = Math.min(first, entry.t);
    last = Math.max(last, entry.t);
  }
  const name = header.server.name ?? identity?.name;
  const version = header.server.version ?? identity?.version;
  return {
    server: header.server.command?.join(" ") ?? header.server.url ?? "(unknown)",
    serverName: name ? `${name}${version ? ` ${version}` : ""}` : undefined,
    transport: header.transport,
    era: header.era ?? "legacy",
    protocolVersion: header.protocolVersion ?? identity?.protocolVersion,
    created: header.created,
    redaction: header.redaction?.rules ?? [],
    sessions,
    durationMs: entries.length > 0 ? last - first : 0,
    entries: entries.length,
    importedFrom: cassette.importedFrom,
    tornLine: cassette.torn?.line,
  };
}

function statsTable() {
  const table = new Map<string, CallStats>();
  return {
    get(label: string, dir: "c2s" | "s2c", kind: CallStats["kind"]): CallStats {
      const key = `${dir}\u0000${kind}\u0000${label}`;
      let stats = table.get(key);
      if (!stats) table.set(key, stats = { label, dir, kind, count: 0, errors: 0, latencies: [] });
      return stats;
    },
    sorted(): CallStats[] {
      return [...table.values()].sort((a, b) =>
        a.dir.localeCompare(b.dir) || a.kind.localeCompare(b.kind) ||
        a.label.localeCompare(b.label)
      );
    },
  };
}

/** Builds the header glance and the per-method and per-tool statistics. */
export function summarise(cassette: Cassette): ViewSummary {
  const messages = listMessages(cassette.entries);
  const methods = statsTable();
  const tools = statsTable();
  for (const message of messages) {
    if (message.kind === "notification") {
      methods.get(message.method ?? "?", message.dir, "notification").count++;
    }
  }
  for (const { request, response } of pairMessages(messages).exchanges) {
    const targets = [methods.get(request.method ?? "?", request.dir, "request")];
    const tool = request.method === "tools/call" ? paramsOf(request)?.name : undefined;
    if (typeof tool === "string") targets.push(tools.get(tool, request.dir, "request"));
    for (const stats of targets) {
      stats.count++;
      if (!response) continue;
      if (response.kind === "error" || isErrorResult(response.msg as JsonObject)) stats.errors++;
      stats.latencies.push(response.t - request.t);
    }
  }
  return { glance: glanceOf(cassette), methods: methods.sorted(), tools: tools.sorted() };
}

/** A tool call that failed inside a result (`isError: true`) counts as an error too. */
function isErrorResult(msg: JsonObject): boolean {
  const result = msg.result as JsonObject | undefined;
  return result !== null && typeof result === "object" && result.isError === true;
}

/** Nearest-rank percentile of values sorted ascending. */
export function nearestRank(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return 0;
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[Math.min(sorted.length, rank) - 1];
}
