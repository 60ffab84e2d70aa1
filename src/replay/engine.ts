/**
 * The transport-neutral replay engine. A front end (stdio, Streamable HTTP,
 * HTTP+SSE, in-process) opens a {@linkcode ReplaySession} per client
 * connection and feeds it what the client sends; the session answers through
 * an {@linkcode Outlet} from the recording.
 *
 * @module
 */
import type { Cassette, CassetteStream, LocatedEntry } from "../cassette/reader.ts";
import type { Era } from "../cassette/format.ts";
import type { FrameStore } from "../cassette/frame_store.ts";
import { invalidateIndex } from "../match/answer_book.ts";
import type { Match } from "../match/answer_book.ts";
import type { ReplayOptions } from "./options.ts";
import type { RecordingSource, ReportSink } from "./source.ts";
import { EpisodeBuilder } from "./episodes.ts";
import type { Episodes, RecordedSession, Step, Trigger } from "./episodes.ts";
import { claimRecording, eraOf, settledClaim, settledEra } from "./claims.ts";
import { emptyReport, reportedCassette, resetReport } from "./report.ts";
import type { RecordedUse, ReplayReport } from "./report.ts";
import { ReplaySession } from "./session.ts";
import { deferred, mergeSessions } from "./pooled_sessions.ts";
import { journalRequest, settleJournal } from "./journal.ts";
import { knownTools } from "./known_tools.ts";
import { INEXACT, OUT_OF_ORDER, PLAYED, REPEATED, UseCounts } from "./use_counts.ts";
import type { JournalEntry, JournalOutcome } from "./journal.ts";
import type { JsonRpcMessage } from "../jsonrpc/messages.ts";
import type { RequestKey } from "../match/fingerprint.ts";

export type { CustomMatcher, MatchMode, ReplayOptions } from "./options.ts";

/** A cassette loaded for serving. */
export class ReplayEngine implements RecordingSource, ReportSink {
  #episodes: Episodes;
  readonly report: ReplayReport;
  /** How each recorded request was used, by its cassette line. */
  #uses = new UseCounts();
  #sessions = new Set<ReplaySession>();
  #claimed = new Set<RecordedSession>();
  #merged: RecordedSession | undefined;

  #builder: EpisodeBuilder;
  #complete = false;
  #loaded: Promise<void> = Promise.resolve();
  #readOn: (() => void) | undefined;
  /** Where a streaming engine's frames are read back from. */
  #store: FrameStore | undefined;
  #waiting = 0;
  #tail: Promise<void> = Promise.resolve();
  #batchRead = deferred();
  /** Sessions opened so far: a session the front end does not name is named by its number. */
  #opened = 0;

  constructor(readonly cassette: Cassette, readonly options: ReplayOptions = {}) {
    this.report = emptyReport(options.journalLimit);
    this.#builder = new EpisodeBuilder(cassette.header, options.fingerprint);
    for (const entry of cassette.entries) this.#builder.add(entry);
    this.#episodes = this.#builder.finish().episodes;
    this.#complete = true;
  }

  /** What replay serves; while the file is read, the sessions read so far. */
  get episodes(): Episodes {
    return this.#episodes;
  }

  /**
   * An engine that serves while the cassette is still being read: it
   * resolves once the file's first batch of lines is read, and reads the rest
   * between the event loop's turns. A request the part read already decides
   * is answered at once (see `takeSettled` in ../match/answer_book.ts and
   * docs/replay.md "Start-up"); anything else, a miss included, waits for
   * the whole file. The engine holds no entries (`cassette.entries` stays
   * empty): what replay needs is in its episodes.
   */
  static async streaming(
    stream: CassetteStream,
    options: ReplayOptions = {},
  ): Promise<ReplayEngine> {
    const { path, header, headerText } = stream;
    const engine = new ReplayEngine({ path, header, headerText, entries: [] }, options);
    engine.#complete = false;
    engine.#builder = new EpisodeBuilder(header, options.fingerprint, true, stream.store);
    engine.#store = stream.store;
    engine.#episodes = { sessions: engine.#builder.sessions, http: engine.#episodes.http };
    const batches = stream.batches[Symbol.asyncIterator]();
    const first = await batches.next();
    if (!first.done) engine.#ingest(first.value);
    let finished!: { resolve: () => void; reject: (error: unknown) => void };
    engine.#loaded = new Promise<void>((resolve, reject) => (finished = { resolve, reject }));
    // Nobody may be waiting yet: a failure is seen by whoever awaits `loaded`.
    engine.#loaded.catch(() => {});
    engine.#readOn = () =>
      engine.#readRest(stream, batches).then(finished.resolve, finished.reject);
    return engine;
  }

  /**
   * Reads the rest of the file, from now on. A streaming front end calls it
   * once the first message is answered (the handshake comes from the part
   * read first, before any other work competes with it); anything that
   * waits for the file calls it too.
   */
  readOn(): void {
    const start = this.#readOn;
    this.#readOn = undefined;
    start?.();
  }

  /**
   * Rejects with what was wrong in the file, if it is bad or changed under
   * the replay; never resolves otherwise, nor reads on.
   */
  get failure(): Promise<never> {
    const loaded = this.#loaded.then(() => new Promise<never>(() => {}));
    return this.#store ? Promise.race([loaded, this.#store.changed]) : loaded;
  }

  /** True once the whole cassette is read. */
  get complete(): boolean {
    return this.#complete;
  }

  /** Resolves once the whole cassette is read; rejects with what was wrong in it. */
  get loaded(): Promise<void> {
    this.readOn();
    return this.#loaded;
  }

  /**
   * A place in the line of messages that wait for more of the file: `ready`
   * resolves once every message that queued before has been decided, and
   * `done` lets the next one go. Messages are matched in the order they came.
   */
  queue(): { ready: Promise<void>; done: () => void } {
    const ready = this.#tail;
    let done = () => {};
    this.#tail = new Promise<void>((resolve) => (done = resolve));
    this.#waiting++;
    return {
      ready,
      done: () => {
        this.#waiting--;
        done();
      },
    };
  }

  /** True when a message waits for more of the file: later ones must queue behind it. */
  get queueing(): boolean {
    return this.#waiting > 0 && !this.#complete;
  }

  /** Resolves once the next batch of the file is read (or the whole file); rejects if it is bad. */
  progress(): Promise<void> {
    this.readOn();
    return Promise.race([this.#batchRead.promise, this.#loaded]);
  }

  #ingest(batch: readonly LocatedEntry[]): void {
    for (const entry of batch) this.#builder.add(entry);
    const read = this.#batchRead;
    this.#batchRead = deferred();
    read.resolve();
  }

  async #readRest(stream: CassetteStream, batches: AsyncIterator<LocatedEntry[]>): Promise<void> {
    while (true) {
      // Each batch waits for a read of the file (16 KiB, src/runtime/file_text.ts): the
      // event loop has a turn in between, and a request read meanwhile is answered first.
      const next = await batches.next();
      if (next.done) break;
      this.#ingest(next.value);
    }
    const { episodes, remarked } = this.#builder.finish();
    this.#episodes = episodes;
    if (remarked) { for (const session of episodes.sessions) invalidateIndex(session.triggers); }
    if (stream.torn) this.cassette.torn = stream.torn;
    this.#complete = true;
    this.#settleSessions();
  }

  /** Sessions claimed while the file was read, moved onto the recording the whole file decides. */
  #settleSessions(): void {
    if (this.era !== "modern" || this.episodes.sessions.length < 2) return;
    const merged = this.#merged ??= mergeSessions(this.episodes.sessions);
    for (const session of this.#sessions) {
      if (session.recording && session.recording !== merged) session.moveTo(merged);
    }
  }

  /** The era the cassette was recorded in (see ./claims.ts). */
  get era(): Era {
    return eraOf(this.cassette.header, this.episodes.sessions);
  }

  /**
   * Server output recorded before the first client message (a banner), or
   * undefined while the part of the file read cannot tell it yet.
   */
  opening(): Step[] | undefined {
    if (this.#complete) return this.episodes.sessions[0]?.opening ?? [];
    const first = this.#builder.sessions[0];
    return first && first.triggers.length > 0 ? first.opening : undefined;
  }

  /** True when any recorded session holds a request of this method. */
  recordsMethod(method: string): boolean {
    return this.episodes.sessions.some((session) =>
      session.triggers.some((trigger) => trigger.key.method === method)
    );
  }

  /** Notes that `trigger` answered a live request, and how. */
  noteUse(trigger: Trigger, match: Match<Trigger>): void {
    const line = trigger.line;
    const uses = this.#uses;
    uses.add(
      line,
      match.kind === "repeat" ? REPEATED : match.kind === "inexact" ? INEXACT : PLAYED,
    );
    if (match.outOfOrder) uses.add(line, OUT_OF_ORDER);
  }

  /** Adds a live request to the journal (see ./journal.ts). */
  noteRequest(
    message: JsonRpcMessage,
    key: RequestKey,
    session: string,
    outcome: JournalOutcome,
    line?: number,
  ): JournalEntry | undefined {
    const { journal } = this.report;
    return journalRequest(
      journal,
      message,
      key,
      session,
      outcome,
      line,
      this.options.rewriteRequest,
    );
  }

  /**
   * Leaves recorded triggers out of every session before any is served (the
   * stateless era's HTTP front end answers header violations itself, so the
   * recorded violations must not answer a later, valid request). Throws once
   * a session is open: their answer books index the triggers.
   */
  dropTriggers(drop: (trigger: Trigger) => boolean): void {
    if (this.#sessions.size > 0 || !this.#complete) {
      throw new Error("dropTriggers after a session opened, or while the file is read");
    }
    for (const session of this.episodes.sessions) {
      const kept = session.triggers.filter((trigger) => !drop(trigger));
      session.triggers.splice(0, session.triggers.length, ...kept);
    }
  }

  /**
   * Opens a session for a new client connection; it picks its recording at
   * the first message. `name` is how the journal names it (a front end's
   * session id); without one, its number.
   */
  openSession(name?: string): ReplaySession {
    const label = name ?? String(++this.#opened);
    const session = new ReplaySession(this, this, this.options, label);
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
      // A recording marked optional may go unplayed: it is no finding.
      if (!trigger.isRequest || trigger.optional) continue;
      this.report.unplayed.push(
        trigger.key.name ? `${trigger.key.method} ${trigger.key.name}` : trigger.key.method,
      );
    }
  }

  /**
   * Chooses the recorded session for a connection whose first client message
   * has this key (see ./claims.ts).
   */
  claimRecording(firstKey: string): RecordedSession {
    // The modern era is stateless: every recorded launch or connection (the
    // SDK v2 client's discover probe on its own launch, then the real one) is
    // one pool of exchanges, served to any client in recorded order.
    if (this.era === "modern" && this.episodes.sessions.length > 1) {
      return this.#merged ??= mergeSessions(this.episodes.sessions);
    }
    return claimRecording(this.episodes.sessions, this.#claimed, firstKey);
  }

  /**
   * {@linkcode claimRecording} while the file is still being read, when the
   * part read already decides; undefined otherwise. A modern-era client gets
   * the first session, the start of the pool it will be served from.
   */
  claimSettled(firstKey: string): RecordedSession | undefined {
    if (this.#complete) return this.claimRecording(firstKey);
    const sessions = this.#builder.sessions;
    const era = settledEra(this.cassette.header, sessions);
    if (era === undefined) return undefined;
    if (era === "legacy") return settledClaim(sessions, this.#claimed, firstKey);
    return sessions[0]?.triggers.length ? sessions[0] : undefined;
  }

  /**
   * Starts afresh (a control reset): every open session on its recording
   * with every answer unused, every recording free to claim again, the use
   * counts, the report and the journal emptied.
   */
  reset(): void {
    for (const session of this.#sessions) session.restart();
    this.#uses.clear();
    this.#claimed.clear();
    resetReport(this.report);
  }

  /**
   * Closes every session and completes the report. Called again (an
   * in-process transport whose client connected again), it adds only the
   * sessions opened since.
   */
  finish(): ReplayReport {
    for (const session of this.#sessions) session.close();
    for (const session of this.#sessions) this.#noteUnplayed(session);
    this.#sessions.clear();
    const unfired = this.options.faults?.unfired() ?? [];
    this.report.unfiredFaults.splice(0, this.report.unfiredFaults.length, ...unfired);
    this.report.recorded = this.#recordedRows();
    this.report.tools = knownTools(this.episodes.sessions);
    const { path, header, headerText } = this.cassette;
    this.report.cassette = reportedCassette(path, header, headerText);
    return this.report;
  }

  /**
   * {@linkcode finish}, once the journal's arguments are redacted (with the
   * recording's rules, they are redacted when the journal is read).
   */
  async finished(): Promise<ReplayReport> {
    const report = this.finish();
    await settleJournal(report.journal);
    return report;
  }

  /** One row per recorded request of the whole cassette, with how it was used. */
  #recordedRows(): RecordedUse[] {
    const rows: RecordedUse[] = [];
    for (const session of this.episodes.sessions) {
      for (const trigger of session.triggers) {
        if (trigger.isRequest) rows.push(recordedUse(trigger, this.#uses));
      }
    }
    return rows.sort((a, b) => a.line - b.line);
  }
}

function recordedUse(trigger: Trigger, uses: UseCounts): RecordedUse {
  const { line, key } = trigger;
  const named = key.name === undefined ? {} : { name: key.name };
  return {
    line,
    method: key.method,
    ...named,
    ...(trigger.optional ? { optional: true as const } : {}),
    played: uses.get(line, PLAYED),
    inexact: uses.get(line, INEXACT),
    repeated: uses.get(line, REPEATED),
    outOfOrder: uses.get(line, OUT_OF_ORDER),
  };
}
