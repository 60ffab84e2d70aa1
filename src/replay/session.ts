/**
 * One client connection being served from a recorded session.
 *
 * @module
 */
import { ErrorCode, errorResponse, idKey } from "../jsonrpc.ts";
import type { Json, JsonObject, JsonRpcId, JsonRpcMessage } from "../jsonrpc.ts";
import { cloneJson, firstDifference } from "../json.ts";
import { AnswerBook } from "../match/answer_book.ts";
import { diagnoseMiss } from "../match/diagnose.ts";
import { requestKey, stripVolatile } from "../match/fingerprint.ts";
import type { RequestKey } from "../match/fingerprint.ts";
import type { Fault } from "../faults/types.ts";
import type { ReplayEngine, ReplayOptions } from "./engine.ts";
import { pacedDelay } from "../faults/pacing.ts";
import type { PacingOptions } from "../faults/pacing.ts";
import type { RecordedSession, Step, Trigger } from "./episodes.ts";
import type { Outlet } from "./outlet.ts";
import { countNotification } from "./report.ts";

const LOG_LEVELS = [
  "debug",
  "info",
  "notice",
  "warning",
  "error",
  "critical",
  "alert",
  "emergency",
];
const MODERN_VERSION_KEY = "io.modelcontextprotocol/protocolVersion";
const MODERN_LOG_LEVEL_KEY = "io.modelcontextprotocol/logLevel";

/** State of one live request being served. */
interface InFlight {
  cancelled: boolean;
  /** The live request's progress token, put on recorded progress notifications. */
  progressToken?: Json;
  /** The modern era's per-request log level ("none" when the request carries none). */
  logLevel?: string;
}

interface PendingAnswer {
  method: string;
  resolve: (message: JsonRpcMessage | undefined) => void;
}

function sleep(ms: number): Promise<void> {
  return ms > 0 ? new Promise((resolve) => setTimeout(resolve, ms)) : Promise.resolve();
}

function paced(gap: number, pacing: PacingOptions | undefined): number {
  return pacing ? pacedDelay(gap, pacing) : 0;
}

/**
 * Even at instant pace, a response that follows notifications waits a moment
 * (2 ms): SDK clients dispatch
 * notifications asynchronously but responses at once, so a progress
 * notification read in the same chunk as its response would be dropped.
 */
function settleGap(trigger: Trigger): number {
  return trigger.steps.length === 0 ? 0 : 2;
}

function metaOf(message: JsonRpcMessage): JsonObject | undefined {
  const params = message.params as JsonObject | undefined;
  const meta = params && !Array.isArray(params) ? params._meta : undefined;
  return meta && typeof meta === "object" && !Array.isArray(meta) ? meta as JsonObject : undefined;
}

function describe(trigger: Trigger): string {
  return trigger.key.name ? `${trigger.key.method} ${trigger.key.name}` : trigger.key.method;
}

/** A replay of one recorded session to one client. */
export class ReplaySession {
  /** The recorded session this connection is served from (chosen at the first message). */
  recording: RecordedSession | undefined;
  #book: AnswerBook<Trigger> | undefined;
  #inFlight = new Map<string, InFlight>();
  #pending = new Map<string, PendingAnswer>();
  #nextServerId = 1;
  #logLevel: string | undefined;
  #closed = false;

  constructor(private readonly engine: ReplayEngine, private readonly options: ReplayOptions) {}

  /** Server output recorded before the first client message (a banner). */
  async open(out: Outlet): Promise<void> {
    const opening = this.engine.episodes.sessions[0]?.opening ?? [];
    for (const step of opening) await this.#emitPassive(step, out, { cancelled: false });
  }

  /** Handles one message from the client. Resolves when its reply (if any) is fully sent. */
  async receive(message: unknown, out: Outlet): Promise<void> {
    // Redaction never touches the envelope (method, id), so it is read as sent.
    const live = message as JsonRpcMessage;
    if (live === null || typeof live !== "object" || Array.isArray(live)) {
      await out.send(
        errorResponse(null, ErrorCode.InvalidRequest, "Invalid request: not a JSON-RPC object"),
      );
      return;
    }
    this.options.observe?.(live);
    const hasId = "id" in live && (typeof live.id === "string" || typeof live.id === "number");
    if (typeof live.method === "string") {
      if (hasId) return await this.#request(live as JsonRpcMessage & { id: JsonRpcId }, out);
      if ("id" in live) {
        // Not a notification (it has an id) nor a valid request: say so rather than stay silent.
        await out.send(
          errorResponse(
            null,
            ErrorCode.InvalidRequest,
            "Invalid request: the id must be a string or a number",
          ),
        );
        return;
      }
      return await this.#notification(live, out);
    }
    if (hasId && ("result" in live || "error" in live)) {
      return this.#answer(
        (this.options.rewriteRequest
          ? await this.options.rewriteRequest(live)
          : live) as JsonRpcMessage,
      );
    }
    await out.send(
      errorResponse(null, ErrorCode.InvalidRequest, "Invalid request: no method, result or error"),
    );
  }

  /** Stops waiting on everything; later calls do nothing. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    for (const flight of this.#inFlight.values()) flight.cancelled = true;
    for (const pending of this.#pending.values()) pending.resolve(undefined);
    this.#pending.clear();
  }

  /** Recorded triggers this session never used. */
  unusedTriggers(): Trigger[] {
    return this.#book?.unused() ?? [];
  }

  #bookFor(message: JsonRpcMessage): AnswerBook<Trigger> {
    if (!this.#book) {
      this.recording = this.engine.claimRecording(
        requestKey(message, this.options.fingerprint).key,
      );
      this.#book = new AnswerBook(this.recording.triggers);
    }
    return this.#book;
  }

  /**
   * The key to match a live message by. The recording's redaction rules are
   * applied only when the message as sent has no exact recording: a message
   * that matches as sent carries nothing they would change (redaction is
   * idempotent), and scrubbing every request cost more than matching it.
   */
  #keyOf(message: JsonRpcMessage): RequestKey | Promise<RequestKey> {
    const key = requestKey(message, this.options.fingerprint);
    if (!this.options.rewriteRequest || this.#bookFor(message).has(key)) return key;
    return this.#rewrittenKey(message);
  }

  async #rewrittenKey(message: JsonRpcMessage): Promise<RequestKey> {
    return requestKey(
      await this.options.rewriteRequest!(message) as JsonRpcMessage,
      this.options.fingerprint,
    );
  }

  async #request(message: JsonRpcMessage & { id: JsonRpcId }, out: Outlet): Promise<void> {
    const book = this.#bookFor(message);
    // Awaited only when rewritten: a request that matches as sent is answered without a pause.
    const keyed = this.#keyOf(message);
    const key = keyed instanceof Promise ? await keyed : keyed;
    // Under --strict another call's recording is never a stand-in.
    const match = book.take(key, !this.options.strict);
    if (!match) {
      const live = await this.options.onMiss?.(message, { session: this.recording?.id });
      if (live) return await out.send({ ...live, id: message.id });
      if (this.#isEraProbe(key.method)) {
        // A legacy server does not know server/discover; answering as it would
        // lets a client that probes for the modern era fall back to initialize.
        await out.send(
          errorResponse(message.id, ErrorCode.MethodNotFound, `Method not found: ${key.method}`),
        );
        return;
      }
      const diagnosis = diagnoseMiss(key, book.keys());
      this.engine.report.misses.push({ method: key.method, message: diagnosis.message });
      this.options.log?.(`miss: ${diagnosis.message}`);
      await out.send(errorResponse(message.id, ErrorCode.ReplayMiss, diagnosis.message, {
        closest: diagnosis.closest ?? null,
        differs: diagnosis.differs ?? null,
      }));
      return;
    }
    const trigger = match.item;
    out.begin?.(trigger);
    if (match.kind === "repeat") {
      this.engine.report.repeats.push(describe(trigger));
      this.options.log?.(`repeating the last recorded answer to ${describe(trigger)}`);
    } else if (match.kind === "inexact") {
      const text = `${key.key} answered with the recording of ${trigger.key.key}`;
      this.engine.report.inexact.push(text);
      this.options.log?.(`inexact match: ${text}`);
    }
    if (message.method === "logging/setLevel") {
      const level = (message.params as JsonObject | undefined)?.level;
      if (typeof level === "string") this.#logLevel = level;
    }
    const meta = metaOf(message);
    const flight: InFlight = { cancelled: false, progressToken: meta?.progressToken };
    if (meta && MODERN_VERSION_KEY in meta) {
      const level = meta[MODERN_LOG_LEVEL_KEY];
      flight.logLevel = typeof level === "string" ? level : "none";
    }
    this.#inFlight.set(idKey(message.id), flight);
    try {
      await this.#serve(message, trigger, flight, out, match.kind === "repeat");
    } finally {
      this.#inFlight.delete(idKey(message.id));
    }
  }

  /**
   * Serves a matched request. A repeated answer (the recording ran out) comes
   * without the change notifications it caused (`list_changed`,
   * `resources/updated`): the change happened once, and re-sending it loops a
   * client that re-lists on `list_changed` (the Java SDK client does).
   */
  async #serve(
    message: JsonRpcMessage & { id: JsonRpcId },
    trigger: Trigger,
    flight: InFlight,
    out: Outlet,
    repeat: boolean,
  ) {
    const faults = this.options.faults?.faultsFor({
      method: trigger.key.method,
      name: trigger.key.name,
      message,
    }) ?? [];
    let answerFault: Fault | undefined;
    for (const fault of faults) {
      if (fault.kind === "delay") await sleep(fault.ms);
      else if (fault.kind === "timeout") return;
      else if (fault.kind === "error" || fault.kind === "malformed") answerFault = fault;
      else if (await out.fault(fault)) return;
    }
    let last = trigger.t;
    let divergent: string | undefined;
    const steps = repeat ? trigger.steps.filter((step) => !isChangeNotice(step)) : trigger.steps;
    for (const step of steps) {
      await sleep(paced(step.t - last, this.options.pacing));
      last = step.t;
      if (flight.cancelled || this.#closed) return;
      const outcome = await this.#emit(step, out, flight);
      if (outcome && !divergent) divergent = outcome;
    }
    if (!trigger.response) return; // never answered in the recording: nor now
    const wait = Math.max(
      paced(trigger.response.t - last, this.options.pacing),
      settleGap(trigger),
    );
    if (wait > 0) await sleep(wait);
    last = trigger.response.t;
    if (flight.cancelled || this.#closed) return;
    await this.#respond(message, trigger, answerFault, divergent, out);
    for (
      const step of repeat ? trigger.after.filter((step) => !isChangeNotice(step)) : trigger.after
    ) {
      await sleep(paced(step.t - last, this.options.pacing));
      last = step.t;
      if (this.#closed) return;
      await this.#emitPassive(step, out, flight);
    }
  }

  async #respond(
    message: JsonRpcMessage & { id: JsonRpcId },
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
    const response = { ...trigger.response!.msg, id: message.id };
    if (fault?.kind === "malformed") {
      await out.raw(malformedText(response, fault.strategy), sse);
      return;
    }
    await out.send(response, sse);
  }

  /** Emits a step; for a server request, waits for the answer and returns a divergence message, if any. */
  async #emit(step: Step, out: Outlet, flight: InFlight): Promise<string | undefined> {
    if (step.kind !== "server-request") {
      await this.#emitPassive(step, out, flight);
      return undefined;
    }
    const method = step.msg.method ?? "";
    const id = this.#nextServerId++;
    const answered = new Promise<JsonRpcMessage | undefined>((resolve) => {
      this.#pending.set(idKey(id), { method, resolve });
    });
    await out.send({ ...step.msg, id }, step.sse);
    const timeoutMs = this.options.answerTimeoutMs ?? 10_000;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timedOut = new Promise<"timeout">((resolve) => {
      timer = setTimeout(() => resolve("timeout"), timeoutMs);
    });
    const answer = await Promise.race([answered, timedOut]);
    clearTimeout(timer);
    this.#pending.delete(idKey(id));
    if (answer === "timeout") {
      this.engine.report.timeouts.push(
        `the client never answered ${method} (waited ${timeoutMs} ms)`,
      );
      this.engine.report.serverInitiated.push({ method, delivered: true, outcome: "timeout" });
      this.options.log?.(`timeout: the client never answered ${method}`);
      return undefined;
    }
    if (answer === undefined) {
      this.engine.report.serverInitiated.push({ method, delivered: true, outcome: "cancelled" });
      return undefined;
    }
    const difference = step.answer
      ? firstDifference(
        stripVolatile(comparable(step.answer.msg)),
        stripVolatile(comparable(answer)),
        "$",
      )
      : undefined;
    this.engine.report.serverInitiated.push({
      method,
      delivered: true,
      outcome: difference ? "divergent" : "as-recorded",
    });
    if (!difference) return undefined;
    this.engine.report.divergences.push({ method, ...difference });
    const text = `Client answered ${method} differently at ${difference.path}`;
    this.options.log?.(`divergent: ${text}`);
    return text;
  }

  async #emitPassive(step: Step, out: Outlet, flight: InFlight): Promise<void> {
    if (step.kind === "raw") return await out.raw(step.text, step.sse);
    if (step.kind === "sse-event") return await out.event?.(step.data, step.sse);
    if (step.kind === "server-request") {
      // A server request after the response: still asked, answer checked.
      await this.#emit(step, out, flight);
      return;
    }
    const message = this.#livened(step.msg, flight);
    if (!message) return;
    if (message.method) countNotification(this.engine.report, message.method);
    await out.send(message, step.sse);
  }

  /** Adapts a recorded notification to this live session, or drops it. */
  #livened(message: JsonRpcMessage, flight: InFlight): JsonRpcMessage | undefined {
    if (message.method === "notifications/progress" && flight.progressToken !== undefined) {
      const copy = cloneJson(message);
      (copy.params as JsonObject).progressToken = flight.progressToken;
      return copy;
    }
    if (message.method === "notifications/message") {
      const level = (message.params as JsonObject | undefined)?.level;
      const threshold = flight.logLevel ?? this.#logLevel;
      if (threshold === "none") return undefined;
      if (
        threshold && typeof level === "string" &&
        LOG_LEVELS.indexOf(level) < LOG_LEVELS.indexOf(threshold)
      ) {
        return undefined;
      }
    }
    return message;
  }

  async #notification(message: JsonRpcMessage, out: Outlet): Promise<void> {
    if (message.method === "notifications/cancelled") {
      const requestId = (message.params as JsonObject | undefined)?.requestId;
      const flight = requestId === undefined
        ? undefined
        : this.#inFlight.get(idKey(requestId as JsonRpcId));
      if (flight) flight.cancelled = true;
    }
    const book = this.#bookFor(message);
    const keyed = this.#keyOf(message);
    const key = keyed instanceof Promise ? await keyed : keyed;
    if (!book.has(key)) return; // Client notifications are accepted silently.
    const match = book.take(key);
    if (!match || match.kind === "repeat") return;
    const flight: InFlight = { cancelled: false };
    let last = match.item.t;
    for (const step of match.item.steps) {
      await sleep(paced(step.t - last, this.options.pacing));
      last = step.t;
      if (this.#closed) return;
      await this.#emit(step, out, flight);
    }
  }

  /** `server/discover` sent to a legacy recording that never saw one. */
  #isEraProbe(method: string): boolean {
    return method === "server/discover" && this.engine.era === "legacy" &&
      !this.engine.episodes.sessions.some((session) =>
        session.triggers.some((trigger) => trigger.key.method === method)
      );
  }

  #answer(message: JsonRpcMessage) {
    const pending = this.#pending.get(idKey(message.id));
    if (!pending) {
      this.engine.report.strays.push(
        `an answer for id ${JSON.stringify(message.id)}, which was never asked`,
      );
      this.options.log?.(
        `ignored an answer for id ${JSON.stringify(message.id)}, which was never asked`,
      );
      return;
    }
    pending.resolve(message);
  }
}

/** A notification that something on the server changed. */
function isChangeNotice(step: Step): boolean {
  const method = step.kind === "message" ? step.msg.method : undefined;
  return method !== undefined &&
    (method.endsWith("/list_changed") || method === "notifications/resources/updated");
}

/** The part of a client answer compared with the recording. */
function comparable(message: JsonRpcMessage): Json {
  return ("error" in message
    ? { error: message.error }
    : { result: message.result ?? null }) as Json;
}

function malformedText(
  response: JsonRpcMessage,
  strategy: "truncate" | "not_json" | "wrong_id",
): string {
  if (strategy === "wrong_id") {
    const id = response.id;
    return JSON.stringify({
      ...response,
      id: typeof id === "number" ? id + 1_000_000 : `${id}-wrong`,
    });
  }
  if (strategy === "not_json") return "this is not JSON";
  const text = JSON.stringify(response);
  return text.slice(0, Math.max(1, Math.floor(text.length / 2)));
}
