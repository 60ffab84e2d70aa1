/**
 * The transport-neutral replay engine. A front end (stdio, Streamable HTTP,
 * HTTP+SSE, in-process) opens a {@linkcode ReplaySession} per client
 * connection and feeds it what the client sends; the session answers through
 * an {@linkcode Outlet} from the recording.
 *
 * @module
 */
import type { Cassette } from "../cassette/reader.ts";
import type { Era } from "../cassette/format.ts";
import type { Match } from "../match/answer_book.ts";
import { sha256Hex } from "../redact/sha256.ts";
import type { ReplayOptions } from "./options.ts";
import type { RecordingSource, ReportSink } from "./source.ts";
import { buildEpisodes } from "./episodes.ts";
import type { Episodes, RecordedSession, Trigger } from "./episodes.ts";
import { emptyReport } from "./report.ts";
import type { RecordedUse, ReplayReport } from "./report.ts";
import { ReplaySession } from "./session.ts";

export type { CustomMatcher, MatchMode, ReplayOptions } from "./options.ts";

/** A cassette loaded for serving. */
export class ReplayEngine implements RecordingSource, ReportSink {
  readonly episodes: Episodes;
  readonly report: ReplayReport = emptyReport();
  /** How each recorded request was used, by its cassette line. */
  #uses = new Map<number, RecordedUse>();
  #sessions = new Set<ReplaySession>();
  #claimed = new Set<RecordedSession>();
  #merged: RecordedSession | undefined;

  constructor(readonly cassette: Cassette, readonly options: ReplayOptions = {}) {
    this.episodes = buildEpisodes(cassette, options.fingerprint);
  }

  /**
   * The era the cassette was recorded in. A header without one means legacy,
   * except on stdio, where the header is written before the first exchange:
   * there a recording whose first answered request is `server/discover` is
   * modern.
   */
  get era(): Era {
    if (this.cassette.header.era) return this.cassette.header.era;
    if (this.cassette.header.transport !== "stdio") return "legacy";
    for (const session of this.episodes.sessions) {
      const answered = session.triggers.find((trigger) =>
        trigger.response && !("error" in trigger.response.msg)
      );
      if (answered?.key.method === "server/discover") return "modern";
      if (answered?.key.method === "initialize") return "legacy";
    }
    return "legacy";
  }

  /** Server output recorded before the first client message (a banner). */
  opening(): RecordedSession["opening"] {
    return this.episodes.sessions[0]?.opening ?? [];
  }

  /** True when any recorded session holds a request of this method. */
  recordsMethod(method: string): boolean {
    return this.episodes.sessions.some((session) =>
      session.triggers.some((trigger) => trigger.key.method === method)
    );
  }

  /** Notes that `trigger` answered a live request, and how. */
  noteUse(trigger: Trigger, match: Match<Trigger>): void {
    let use = this.#uses.get(trigger.line);
    if (!use) this.#uses.set(trigger.line, use = recordedUse(trigger));
    if (match.kind === "repeat") use.repeated++;
    else if (match.kind === "inexact") use.inexact++;
    else use.played++;
    if (match.outOfOrder) use.outOfOrder++;
  }

  /**
   * Leaves recorded triggers out of every session before any is served (the
   * stateless era's HTTP front end answers header violations itself, so the
   * recorded violations must not answer a later, valid request). Throws once
   * a session is open: their answer books index the triggers.
   */
  dropTriggers(drop: (trigger: Trigger) => boolean): void {
    if (this.#sessions.size > 0) throw new Error("dropTriggers after a session opened");
    for (const session of this.episodes.sessions) {
      const kept = session.triggers.filter((trigger) => !drop(trigger));
      session.triggers.splice(0, session.triggers.length, ...kept);
    }
  }

  /** Opens a session for a new client connection; it picks its recording at the first message. */
  openSession(): ReplaySession {
    const session = new ReplaySession(this, this, this.options);
    this.#sessions.add(session);
    return session;
  }

  /**
   * Forgets a session its client ended (an HTTP DELETE), noting what it left
   * unplayed: a long-running replay serving one session after another must
   * not hold every one it ever served.
   */
  release(session: ReplaySession): void {
    if (!this.#sessions.delete(session)) return;
    session.close();
    this.#noteUnplayed(session);
  }

  #noteUnplayed(session: ReplaySession): void {
    for (const trigger of session.unusedTriggers()) {
      if (!trigger.isRequest) continue;
      this.report.unplayed.push(
        trigger.key.name ? `${trigger.key.method} ${trigger.key.name}` : trigger.key.method,
      );
    }
  }

  /**
   * Chooses the recorded session for a connection whose first client message
   * has this key: the first unclaimed session that starts with it, else the
   * first unclaimed one, else the first that starts with it.
   */
  claimRecording(firstKey: string): RecordedSession {
    // The modern era is stateless: every recorded launch or connection (the
    // SDK v2 client's discover probe on its own launch, then the real one) is
    // one pool of exchanges, served to any client in recorded order.
    if (this.era === "modern" && this.episodes.sessions.length > 1) {
      return this.#merged ??= mergeSessions(this.episodes.sessions);
    }
    const sessions = this.episodes.sessions;
    const startsWith = (session: RecordedSession) => session.triggers[0]?.key.key === firstKey;
    const pick = sessions.find((s) => !this.#claimed.has(s) && startsWith(s)) ??
      sessions.find((s) => !this.#claimed.has(s)) ??
      sessions.find(startsWith) ??
      sessions[0];
    this.#claimed.add(pick);
    return pick;
  }

  /** Closes every session and completes the report. */
  finish(): ReplayReport {
    for (const session of this.#sessions) session.close();
    for (const session of this.#sessions) this.#noteUnplayed(session);
    if (this.options.faults) this.report.unfiredFaults.push(...this.options.faults.unfired());
    this.report.recorded = this.#recordedRows();
    this.report.cassette = {
      headerSha256: sha256Hex(this.cassette.headerText ?? JSON.stringify(this.cassette.header)),
    };
    return this.report;
  }

  /** One row per recorded request of the whole cassette, with how it was used. */
  #recordedRows(): RecordedUse[] {
    const rows: RecordedUse[] = [];
    for (const session of this.episodes.sessions) {
      for (const trigger of session.triggers) {
        if (trigger.isRequest) rows.push(this.#uses.get(trigger.line) ?? recordedUse(trigger));
      }
    }
    return rows.sort((a, b) => a.line - b.line);
  }
}

function recordedUse(trigger: Trigger): RecordedUse {
  const named = trigger.key.name === undefined ? {} : { name: trigger.key.name };
  return {
    line: trigger.line,
    method: trigger.key.method,
    ...named,
    played: 0,
    inexact: 0,
    repeated: 0,
    outOfOrder: 0,
  };
}

/** All sessions as one, triggers in session order (for the stateless modern era). */
function mergeSessions(sessions: RecordedSession[]): RecordedSession {
  const triggers = sessions.flatMap((session) => session.triggers).map((trigger, index) => ({
    ...trigger,
    index,
  }));
  return {
    id: sessions.map((session) => session.id).join("+"),
    triggers,
    opening: sessions[0]?.opening ?? [],
    standalone: [],
  };
}
