/**
 * What the report and the log say of a match that was anything but in
 * order and exact: a repeat, an inexact stand-in, an out-of-order answer.
 *
 * @module
 */
import type { Match } from "../match/answer_book.ts";
import type { RequestKey } from "../match/fingerprint.ts";
import type { Trigger } from "./episodes.ts";
import type { ReplayOptions } from "./options.ts";
import type { ReportSink } from "./source.ts";
import { describe } from "./steps.ts";
import type { JsonRpcMessage } from "../jsonrpc/messages.ts";
import { outcomeOf } from "./journal.ts";
import type { JournalEntry } from "./journal.ts";

/** A live request, its key and the session it came in on. */
export interface LiveRequestNote {
  message: JsonRpcMessage;
  key: RequestKey;
  session: string;
}

/**
 * Notes a match in the report (every use, and how it was matched), in the
 * journal (its entry is returned, for a fault to mark) and, when unusual,
 * in the log.
 */
export function noteMatch(
  sink: ReportSink,
  options: ReplayOptions,
  live: LiveRequestNote,
  match: Match<Trigger>,
): JournalEntry | undefined {
  const trigger = match.item;
  const { report } = sink;
  const { key } = live;
  sink.noteUse(trigger, match);
  // A recording cut short (no answer, not cancelled) answers nothing: a miss.
  const answered = trigger.response !== undefined || trigger.cancelled;
  const entry = answered
    ? sink.noteRequest(live.message, key, live.session, outcomeOf(match), trigger.line)
    : sink.noteRequest(live.message, key, live.session, "miss");
  if (match.kind === "repeat") {
    report.repeats.push(describe(trigger));
    options.log?.(`repeating the last recorded answer to ${describe(trigger)}`);
  } else if (match.kind === "inexact") {
    const text = `${key.key} answered with the recording of ${trigger.key.key}`;
    report.inexact.push(text);
    options.log?.(`inexact match: ${text}`);
  }
  if (match.outOfOrder) {
    const text = `${
      describe(trigger)
    } answered with the recording at cassette line ${trigger.line}, made after a request this session has not made`;
    report.outOfOrder.push(text);
    options.log?.(`out of order: ${text}`);
  }
  return entry;
}
