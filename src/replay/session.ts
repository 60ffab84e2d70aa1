/**
 * One client connection being served from a recorded session.
 *
 * @module
 */
import { ErrorCode, errorResponse, idKey } from "../jsonrpc/messages.ts";
import type { JsonObject, JsonRpcId, JsonRpcMessage } from "../jsonrpc/messages.ts";
import type { Match } from "../match/answer_book.ts";
import { requestKey } from "../match/fingerprint.ts";
import type { RequestKey } from "../match/fingerprint.ts";
import type { Fault } from "../faults/types.ts";
import { sleep } from "../util/helpers.ts";
import { withoutKey } from "../util/churn.ts";
import { ServerRequests } from "./asking.ts";
import type { RecordedSession, Step, Trigger } from "./episodes.ts";
import { MatcherFailure, rewrittenAnswer, SessionMatcher } from "./matching.ts";
import { eraHint, isEraProbe } from "./era.ts";
import type { ReplayOptions } from "./options.ts";
import { invalid, sendReady } from "./outlet.ts";
import type { Outlet } from "./outlet.ts";
import { countNotification } from "./report.ts";
import type { RecordingSource, ReportSink } from "./source.ts";
import { withLiveId } from "./wire.ts";
import { flightOf, livened } from "./flight.ts";
import type { InFlight } from "./flight.ts";
import {
  describe,
  isChangeNotice,
  isLiveProgress,
  malformedText,
  paced,
  settleGap,
} from "./steps.ts";
import { noteMatch } from "./match_note.ts";
import { sameTrigger } from "./trigger_list.ts";
import { whenSettled } from "./settling.ts";
import { describeMiss } from "./miss.ts";
import type { MissReport } from "../errors/errors.ts";
import type { JournalEntry } from "./journal.ts";

type LiveRequest = JsonRpcMessage & { id: JsonRpcId };

/** A replay of one recorded session to one client. */
export class ReplaySession {
  /** The recorded session this connection is served from (chosen at the first message). */
  recording: RecordedSession | undefined;
  #matcher: SessionMatcher | undefined;
  #inFlight = new Map<string, InFlight>();
  #asked: ServerRequests;
  #logLevel: string | undefined;
  #closed = false;

  constructor(
    private readonly source: RecordingSource,
    private readonly sink: ReportSink,
    private readonly options: ReplayOptions,
    readonly label = "1", // how the journal names this session
  ) {
    this.#asked = new ServerRequests(sink, options);
  }

  /** Server output recorded before the first client message (a banner). */
  async open(out: Outlet): Promise<void> {
    let opening = this.source.opening();
    while (!opening) {
      await this.source.progress();
      opening = this.source.opening();
    }
    for (const step of opening) await this.#emitPassive(step, out, { cancelled: false });
  }

  /** Handles one message from the client. Resolves when its reply (if any) is fully sent. */
  async receive(message: unknown, out: Outlet): Promise<void> {
    // Redaction never touches the envelope (method, id), so it is read as sent.
    const live = message as JsonRpcMessage;
    if (live === null || typeof live !== "object" || Array.isArray(live)) {
      return await invalid(out, "not a JSON-RPC object");
    }
    this.options.observe?.(live);
    const hasId = "id" in live && (typeof live.id === "string" || typeof live.id === "number");
    if (typeof live.method === "string") {
      if (hasId) return await this.#request(live as LiveRequest, out);
      // Not a notification (it has an id) nor a valid request: say so rather than stay silent.
      if ("id" in live) return await invalid(out, "the id must be a string or a number");
      return await this.#notification(live, out);
    }
    if (hasId && ("result" in live || "error" in live)) {
      return this.#answer(await rewrittenAnswer(this.options, live));
    }
    await invalid(out, "no method, result or error");
  }

  /** Stops waiting on everything; later calls do nothing. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    for (const flight of this.#inFlight.values()) flight.cancelled = true;
    this.#asked.close();
  }

  /** Recorded triggers this session never used. */
  unusedTriggers(): Trigger[] {
    return this.#matcher?.book.unused() ?? [];
  }

  /** Starts afresh on the same recording, every answer unused again (a control reset). */
  restart(): void {
    if (this.recording) this.#matcher = new SessionMatcher(this.recording.triggers, this.options);
  }

  /**
   * Moves this session onto `recording`, which starts with the one it was
   * served from so far (a streaming replay of the stateless era, once the
   * whole file shows several sessions to pool).
   */
  moveTo(recording: RecordedSession): void {
    this.recording = recording;
    this.#matcher?.book.rebase(recording.triggers);
  }

  /** The matcher of this session's recording, chosen at its first message. */
  #matching(message: JsonRpcMessage): SessionMatcher {
    if (!this.#matcher) {
      this.#startWith(
        this.source.claimRecording(requestKey(message, this.options.fingerprint).key),
      );
    }
    return this.#matcher!;
  }

  #startWith(recording: RecordedSession): void {
    this.recording = recording;
    this.#matcher = new SessionMatcher(recording.triggers, this.options);
  }

  /**
   * While the file is still being read: the match for `key` when the part
   * read decides it (see `takeSettled`), else undefined, and nothing taken.
   * A user's matcher, and the recording's redaction re-applied, wait for the
   * whole file: what they would pick may be further on.
   */
  #settledMatch(key: RequestKey): Match<Trigger> | undefined {
    if (this.options.matchers?.length) return undefined;
    if (!this.#matcher) {
      const recording = this.source.claimSettled(key.key);
      if (!recording) return undefined;
      this.#startWith(recording);
    }
    const triggers = this.recording!.triggers;
    const last = triggers[triggers.length - 1];
    // Complete: answered (a notification needs no answer), and a later
    // client message read, so nothing more the server sent can join it.
    const settled = (trigger: Trigger) =>
      !sameTrigger(trigger, last) && (!trigger.isRequest || trigger.response !== undefined);
    return this.#matcher!.book.takeSettled(key, settled);
  }

  async #request(message: LiveRequest, out: Outlet): Promise<void> {
    if (!this.source.complete) {
      const key = requestKey(message, this.options.fingerprint);
      const match = await whenSettled(this.source, () => this.#settledMatch(key));
      if (match) return await this.#serveMatch(message, key, match, out);
    }
    const matcher = this.#matching(message);
    // Awaited only when rewritten: a request that matches as sent is answered without a pause.
    const keyed = matcher.keyOf(message);
    const key = keyed instanceof Promise ? await keyed : keyed;
    let match: Match<Trigger> | undefined;
    try {
      match = matcher.take(message, key);
    } catch (error) {
      if (!(error instanceof MatcherFailure)) throw error;
      return await this.#failMatcher(message, key, error, out);
    }
    if (!match) return await this.#miss(message, key, matcher, out);
    await this.#serveMatch(message, key, match, out);
  }

  async #serveMatch(message: LiveRequest, key: RequestKey, match: Match<Trigger>, out: Outlet) {
    const trigger = match.item;
    const entry = noteMatch(this.sink, this.options, { message, key, session: this.label }, match);
    out.begin?.(trigger);
    if (!trigger.response && !trigger.cancelled) {
      return await this.#unanswered(message, trigger, out);
    }
    if (message.method === "logging/setLevel") {
      const level = (message.params as JsonObject | undefined)?.level;
      if (typeof level === "string") this.#logLevel = level;
    }
    const flight = flightOf(message);
    this.#inFlight.set(idKey(message.id), flight);
    try {
      await this.#serve(message, trigger, flight, out, match.kind === "repeat", entry);
    } finally {
      this.#inFlight = withoutKey(this.#inFlight, idKey(message.id));
    }
  }

  async #miss(message: LiveRequest, key: RequestKey, matcher: SessionMatcher, out: Outlet) {
    const live = await this.options.onMiss?.(message, { session: this.recording?.id });
    this.sink.noteRequest(message, key, this.label, live ? "live" : "miss");
    if (live) return await out.send({ ...live, id: message.id });
    if (isEraProbe(this.source, key.method)) {
      // A legacy server does not know server/discover; answering as it would
      // lets a client that probes for the modern era fall back to initialize.
      const text = `Method not found: ${key.method}`;
      return await out.send(errorResponse(message.id, ErrorCode.MethodNotFound, text));
    }
    const miss = describeMiss(matcher.diagnose(key), key, eraHint(this.source.era, message));
    this.#reportMiss(miss.report);
    await out.send(errorResponse(message.id, ErrorCode.ReplayMiss, miss.report.message, miss.data));
  }

  #reportMiss(miss: MissReport) {
    const entry = Object.fromEntries(Object.entries(miss).filter(([, v]) => v !== undefined));
    this.sink.report.misses.push(entry as typeof miss);
    this.options.log?.(`miss: ${miss.message}`);
  }

  /**
   * A recorded request the server never answered (a recording cut short): the
   * client hears so at once rather than waiting for its own timeout.
   */
  async #unanswered(message: LiveRequest, trigger: Trigger, out: Outlet) {
    const text = `The recording holds no answer for ${
      describe(trigger)
    } (cassette line ${trigger.line}): the recording ended before the server answered`;
    this.#reportMiss({ method: trigger.key.method, message: text, closestLine: trigger.line });
    await out.send(errorResponse(message.id, ErrorCode.ReplayMiss, text));
  }

  async #failMatcher(message: LiveRequest, key: RequestKey, error: Error, out: Outlet) {
    this.sink.noteRequest(message, key, this.label, "miss");
    this.#reportMiss({ method: key.method, message: error.message });
    await out.send(errorResponse(message.id, ErrorCode.InternalError, error.message));
  }

  /**
   * Serves a matched request. A repeated answer (the recording ran out) comes
   * without the change notifications it caused (`list_changed`,
   * `resources/updated`): the change happened once, and re-sending it loops a
   * client that re-lists on `list_changed` (the Java SDK client does).
   */
  async #serve(
    message: LiveRequest,
    trigger: Trigger,
    flight: InFlight,
    out: Outlet,
    repeat: boolean,
    entry: JournalEntry | undefined,
  ) {
    // Awaited only with faults: an await on the path of every answer cost the
    // stdio replay about 15 µs a call (the continuation waits for the next
    // turn of the event loop), measured end to end.
    const answerFault = this.options.faults
      ? await this.#faultsBefore(message, trigger, out, entry)
      : undefined;
    if (answerFault === "stop") return;
    let last = trigger.t;
    let divergent: string | undefined;
    let progressed = false;
    const steps = repeat ? trigger.steps.filter((step) => !isChangeNotice(step)) : trigger.steps;
    for (const step of steps) {
      await sleep(paced(step.t - last, this.options.pacing));
      last = step.t;
      if (flight.cancelled || this.#closed) return;
      const outcome = await this.#emit(step, out, flight);
      if (outcome && !divergent) divergent = outcome;
      progressed ||= isLiveProgress(step, flight);
    }
    if (!trigger.response) return; // cancelled in the recording, never answered: nor now
    // Whatever the pacing, the client runs its progress handlers before the answer ends them.
    if (progressed && out.readsAhead) await this.#asked.settle(out);
    const wait = Math.max(
      paced(trigger.response.t - last, this.options.pacing),
      settleGap(trigger),
    );
    if (wait > 0) await sleep(wait);
    last = trigger.response.t;
    if (flight.cancelled || this.#closed) return;
    await this.#respond(message, trigger, answerFault, divergent, out);
    const after = repeat ? trigger.after.filter((step) => !isChangeNotice(step)) : trigger.after;
    for (const step of after) {
      await sleep(paced(step.t - last, this.options.pacing));
      last = step.t;
      if (this.#closed) return;
      await this.#emitPassive(step, out, flight);
    }
  }

  /** Carries out the faults that come before the answer; "stop" when one ends the request. */
  async #faultsBefore(
    message: LiveRequest,
    trigger: Trigger,
    out: Outlet,
    entry: JournalEntry | undefined,
  ): Promise<Fault | undefined | "stop"> {
    const faults = this.options.faults?.faultsFor({
      method: trigger.key.method,
      name: trigger.key.name,
      message,
    }) ?? [];
    if (entry && faults.length > 0) entry.outcome = "fault";
    let answerFault: Fault | undefined;
    for (const fault of faults) {
      if (fault.kind === "delay") await sleep(fault.ms);
      else if (fault.kind === "timeout") return "stop";
      else if (fault.kind === "error" || fault.kind === "malformed") answerFault = fault;
      else if (await out.fault(fault)) return "stop";
    }
    return answerFault;
  }

  async #respond(
    message: LiveRequest,
    trigger: Trigger,
    fault: Fault | undefined,
    divergent: string | undefined,
    out: Outlet,
  ) {
    const sse = trigger.response?.sse;
    if (fault?.kind === "error") {
      await out.send(errorResponse(message.id, fault.code, fault.message, fault.data), sse);
      return;
    }
    if (divergent && this.options.strict) {
      await out.send(errorResponse(message.id, ErrorCode.ReplayMiss, divergent), sse);
      return;
    }
    const ready = this.#matcher?.answerFor(trigger, message) ??
      withLiveId(trigger.response!, message.id);
    if (fault?.kind === "malformed") {
      await out.raw(malformedText(ready, fault.strategy), sse);
      return;
    }
    await sendReady(out, ready, sse);
  }

  /** Emits a step; for a server request, waits for the answer and returns a divergence message, if any. */
  async #emit(step: Step, out: Outlet, flight: InFlight): Promise<string | undefined> {
    if (step.kind === "server-request") return await this.#asked.ask(step, out);
    await this.#emitPassive(step, out, flight);
    return undefined;
  }

  async #emitPassive(step: Step, out: Outlet, flight: InFlight): Promise<void> {
    if (step.kind === "raw") return await out.raw(step.text, step.sse);
    if (step.kind === "sse-event") return await out.event?.(step.data, step.sse);
    if (step.kind === "server-request") {
      // A server request after the response: still asked, answer checked.
      await this.#asked.ask(step, out);
      return;
    }
    const ready = livened(step, flight, this.#logLevel);
    if (!ready) return;
    if (ready.message.method) countNotification(this.sink.report, ready.message.method);
    await out.send(ready.message, step.sse, ready.text);
  }

  async #notification(message: JsonRpcMessage, out: Outlet): Promise<void> {
    if (!this.source.complete) {
      const key = requestKey(message, this.options.fingerprint);
      const match = await whenSettled(this.source, () => this.#settledMatch(key));
      if (match) return await this.#react(match, out);
    }
    if (message.method === "notifications/cancelled") {
      const requestId = (message.params as JsonObject | undefined)?.requestId;
      const flight = requestId === undefined
        ? undefined
        : this.#inFlight.get(idKey(requestId as JsonRpcId));
      if (flight) flight.cancelled = true;
    }
    const matcher = this.#matching(message);
    const keyed = matcher.keyOf(message);
    const key = keyed instanceof Promise ? await keyed : keyed;
    if (!matcher.book.has(key)) return; // Client notifications are accepted silently.
    const match = matcher.book.take(key);
    if (match) await this.#react(match, out);
  }

  /** What the server did on a recorded client notification, done again. */
  async #react(match: Match<Trigger>, out: Outlet): Promise<void> {
    if (match.kind === "repeat") return;
    const flight: InFlight = { cancelled: false };
    let last = match.item.t;
    for (const step of match.item.steps) {
      await sleep(paced(step.t - last, this.options.pacing));
      last = step.t;
      if (this.#closed) return;
      await this.#emit(step, out, flight);
    }
  }

  #answer(message: JsonRpcMessage) {
    if (this.#asked.answer(message)) return;
    const text = `an answer for id ${JSON.stringify(message.id)}, which was never asked`;
    this.sink.report.strays.push(text);
    this.options.log?.(`ignored ${text}`);
  }
}
