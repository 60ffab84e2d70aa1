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
import type { FaultInjector } from "../faults/types.ts";
import type { PacingOptions } from "../faults/pacing.ts";
import type { FingerprintOptions } from "../match/fingerprint.ts";
import type { JsonRpcMessage } from "../jsonrpc.ts";
import { buildEpisodes } from "./episodes.ts";
import type { Episodes, RecordedSession } from "./episodes.ts";
import { emptyReport } from "./report.ts";
import type { ReplayReport } from "./report.ts";
import { ReplaySession } from "./session.ts";

/** Options of a replay. */
export interface ReplayOptions {
  /** A divergent client answer fails the replay (and the triggering request). */
  strict?: boolean;
  /** How long to wait for the client to answer a server request, in ms (default 10000). */
  answerTimeoutMs?: number;
  faults?: FaultInjector;
  pacing?: PacingOptions;
  /**
   * Applied to each live client message before matching: the client-direction
   * redaction rules, so a scrubbed recording still matches a real secret.
   * Called only for messages that do not match as sent; it may resolve later
   * (replay loads the redaction rules on first use).
   */
  rewriteRequest?: (message: unknown) => unknown | Promise<unknown>;
  /** Sees each client message as received (record mode `new_episodes` keeps the handshake). */
  observe?: (message: JsonRpcMessage) => void;
  /** Diagnostics, one line each (stderr on the CLI). */
  log?: (line: string) => void;
  fingerprint?: FingerprintOptions;
  /**
   * Called before a miss is answered (record mode `new_episodes`): resolves
   * with a live answer to send instead, or undefined to answer the miss.
   * `context.session` names the recorded session being served.
   */
  onMiss?: (
    message: JsonRpcMessage,
    context?: { session?: string },
  ) => Promise<JsonRpcMessage | undefined>;
}

/** A cassette loaded for serving. */
export class ReplayEngine {
  readonly episodes: Episodes;
  readonly report: ReplayReport = emptyReport();
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

  /** Opens a session for a new client connection; it picks its recording at the first message. */
  openSession(): ReplaySession {
    const session = new ReplaySession(this, this.options);
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
    return this.report;
  }
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
