/**
 * The summary of `inspect`, built entry by entry: per-method counts and
 * durations, per-session spans, the server's own requests and the requests
 * in flight are kept; the entries are not.
 *
 * @module
 */
import type { CassetteSink, CassetteStart } from "../cassette/entries.ts";
import type { LocatedEntry } from "../cassette/reader.ts";
import type { LocatedMessage } from "../surface/mod.ts";
import { DEFAULT_SESSION } from "../surface/mod.ts";
import { latestOf, StreamPairing, SurfaceBuilder } from "../surface/stream.ts";
import type { PairStep } from "../surface/stream.ts";
import type {
  InspectReport,
  MethodStats,
  Percentiles,
  ServerRequest,
  SessionStats,
} from "./types.ts";

export { TimelineRun } from "./timeline.ts";

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

type Stat = MethodStats & { durations: number[] };

function newStat(method: string, dir: "c2s" | "s2c", kind: Stat["kind"]): Stat {
  return { method, dir, kind, count: 0, answered: 0, errors: 0, durations: [] };
}

/** Builds an {@linkcode InspectReport}: feed it a cassette, then call `finish`. */
export class InspectRun implements CassetteSink {
  private begun?: CassetteStart;
  private tornLine?: { line: number };
  private entries = 0;
  private readonly pairing = new StreamPairing();
  private readonly surface = new SurfaceBuilder();
  private readonly sessions = new Map<string, SessionStats>();
  /** Notifications and requests apart, merged at the end as the loaded-file report merges them. */
  private readonly notifications = new Map<string, Stat>();
  private readonly requests = new Map<string, Stat>();
  private readonly serverRequests: ServerRequest[] = [];
  private readonly pendingServer = new Map<object, ServerRequest>();

  /** The header. */
  start(start: CassetteStart): void {
    this.begun = start;
  }

  /** One entry. */
  entry(entry: LocatedEntry): void {
    this.entries++;
    this.sessionEntry(entry);
    if (entry.type !== "message") return;
    for (const message of this.pairing.messagesOf(entry)) {
      this.message(message, this.pairing.push(message));
    }
  }

  /** A torn last line. */
  torn(torn: { line: number }): void {
    this.tornLine = { line: torn.line };
  }

  private message(message: LocatedMessage, step: PairStep): void {
    if (message.kind === "notification") {
      const key = `${message.dir} ${message.method!}`;
      let stat = this.notifications.get(key);
      if (!stat) {
        this.notifications.set(key, stat = newStat(message.method!, message.dir, "notification"));
      }
      stat.count++;
    }
    if (step.kind === "request") {
      const method = message.method ?? "?";
      const key = `${message.dir} ${method}`;
      let stat = this.requests.get(key);
      if (!stat) this.requests.set(key, stat = newStat(method, message.dir, "request"));
      stat.count++;
      if (message.dir === "s2c") {
        const request: ServerRequest = {
          method,
          id: message.id!,
          session: message.session,
          line: message.line,
          t: message.t,
          answered: false,
        };
        this.serverRequests.push(request);
        this.pendingServer.set(step.exchange, request);
      }
    } else if (step.kind === "answer") {
      const { request } = step.exchange;
      const stat = this.requests.get(`${request.dir} ${request.method ?? "?"}`)!;
      stat.answered++;
      if (message.kind === "error") stat.errors++;
      stat.durations.push(message.t - request.t);
      if (request.dir === "c2s") this.surface.answered(step.exchange);
      const server = this.pendingServer.get(step.exchange);
      if (server) {
        server.answered = true;
        this.pendingServer.delete(step.exchange);
      }
    }
  }

  private sessionEntry(entry: LocatedEntry): void {
    const name = entry.session ?? DEFAULT_SESSION;
    let stats = this.sessions.get(name);
    if (!stats) {
      this.sessions.set(
        name,
        stats = { session: name, messages: 0, firstT: entry.t, lastT: entry.t },
      );
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

  /** Notification counts first, then requests: one row per direction and method. */
  private methods(): Map<string, Stat> {
    const methods = new Map<string, Stat>();
    for (const [key, stat] of this.notifications) methods.set(key, { ...stat, durations: [] });
    for (const [key, stat] of this.requests) {
      const merged = methods.get(key);
      if (!merged) {
        methods.set(key, stat);
        continue;
      }
      merged.count += stat.count;
      merged.answered += stat.answered;
      merged.errors += stat.errors;
      merged.durations.push(...stat.durations);
    }
    return methods;
  }

  /** The report, once every line is in. */
  finish(): InspectReport {
    const methods = this.methods();
    const surface = this.surface.finish();
    const items = [...latestOf(surface.items).values()];
    const count = (kind: string) => items.filter((item) => item.kind === kind).length;
    const report: InspectReport = {
      file: this.begun!.path,
      header: this.begun!.header,
      entries: this.entries,
      messages: this.pairing.messages,
      sessions: [...this.sessions.values()].sort((a, b) =>
        a.firstT - b.firstT || a.session.localeCompare(b.session)
      ),
      methods: [...methods.values()]
        .map(({ durations, ...rest }) =>
          durations.length > 0 ? { ...rest, latency: percentiles(durations) } : rest
        )
        .sort((a, b) =>
          a.dir.localeCompare(b.dir) || a.method.localeCompare(b.method) ||
          a.kind.localeCompare(b.kind)
        ),
      serverInitiated: {
        requests: this.serverRequests,
        notifications: [...methods.values()]
          .filter((m) => m.dir === "s2c" && m.kind === "notification")
          .map((m) => ({ method: m.method, count: m.count })),
      },
      surface: {
        tools: count("tool"),
        prompts: count("prompt"),
        resources: count("resource"),
        templates: count("template"),
      },
    };
    const { name, version } = surface.server ?? {};
    if (name !== undefined || version !== undefined) report.serverInfo = { name, version };
    if (this.begun!.importedFrom) report.importedFrom = this.begun!.importedFrom;
    if (this.tornLine) report.torn = this.tornLine;
    return report;
  }
}
