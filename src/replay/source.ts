/**
 * What a replay session may read and write of the engine that serves it: a
 * recording source (the recorded sessions, which one a connection gets) and
 * a report sink. Types only, so that the session does not import the engine.
 *
 * @module
 */
import type { Era } from "../cassette/format.ts";
import type { Match } from "../match/answer_book.ts";
import type { RecordedSession, Trigger } from "./episodes.ts";
import type { ReplayReport } from "./report.ts";
import type { JournalEntry, JournalOutcome } from "./journal.ts";
import type { RequestKey } from "../match/fingerprint.ts";
import type { JsonRpcMessage } from "../jsonrpc/messages.ts";

/** The recording a session serves from. */
export interface RecordingSource {
  /** The era the cassette was recorded in. */
  readonly era: Era;
  /** Server output recorded before the first client message; undefined until the part read tells. */
  opening(): RecordedSession["opening"] | undefined;
  /** The recorded session for a connection whose first client message has this key. */
  claimRecording(firstKey: string): RecordedSession;
  /** The same while the file is read, when the part read decides; else undefined. */
  claimSettled(firstKey: string): RecordedSession | undefined;
  /** True once the whole file is read (it always is, but for a streaming replay). */
  readonly complete: boolean;
  /** True when a message waits for more of the file: later ones must queue behind it. */
  readonly queueing: boolean;
  /** A place in that queue: `ready` once the messages before are decided; `done` to leave it. */
  queue(): { ready: Promise<void>; done: () => void };
  /** Resolves once more of the file is read. */
  progress(): Promise<void>;
  /** True when any recorded session holds a request of this method. */
  recordsMethod(method: string): boolean;
}

/** Where a session reports what it served. */
export interface ReportSink {
  readonly report: ReplayReport;
  /** Notes that `trigger` answered a live request, and how. */
  noteUse(trigger: Trigger, match: Match<Trigger>): void;
  /** Adds a live request to the journal; its entry, or undefined once the journal is full. */
  noteRequest(
    message: JsonRpcMessage,
    key: RequestKey,
    session: string,
    outcome: JournalOutcome,
    line?: number,
  ): JournalEntry | undefined;
}
