/**
 * Turns a cassette's flat entry list into what replay serves: per client
 * session, the client messages that triggered something (requests and
 * notifications) and, for each, the server's reaction in recorded order.
 *
 * Attribution of a server message to a trigger: an HTTP message belongs to
 * the exchange whose POST stream carried it; on stdio a message goes to the
 * request whose progress token it carries, else to the earliest request
 * still waiting for its response, else to the last client message before it.
 *
 * @module
 */
import type { CassetteHeader, Entry, MessageEntry } from "../cassette/format.ts";
import type { Cassette } from "../cassette/reader.ts";
import { keptFrameText } from "../cassette/frame_text.ts";
import { ExchangeIndexer } from "./http/exchanges.ts";
import type { ExchangeIndex } from "./http/exchanges.ts";
import { classify, idKey } from "../jsonrpc/messages.ts";
import type { Json, JsonObject, JsonRpcMessage } from "../jsonrpc/messages.ts";
import { requestKey } from "../match/fingerprint.ts";
import type { FingerprintOptions } from "../match/fingerprint.ts";
import { markReads, ReadMarks } from "./reads.ts";
import { DiskFrame, TextFrame } from "./text_frame.ts";
import { DiskColumns, DiskTrigger } from "./disk_trigger.ts";
import { KeyArena } from "./key_arena.ts";
import { triggerList } from "./trigger_list.ts";
import { framePlace } from "../cassette/frame_store.ts";
import type { FrameStore } from "../cassette/frame_store.ts";

export type { RecordedFrame, Step, Trigger } from "./trigger.ts";
import type { RecordedFrame, Step, Trigger } from "./trigger.ts";
import { NO_STEPS } from "./trigger.ts";
import { withoutKey } from "../util/churn.ts";

/** One client session of the recording. */
export interface RecordedSession {
  id: string;
  triggers: Trigger[];
  /** Server output before the first client message (a banner, a log line). */
  opening: Step[];
  /** Messages on the standalone GET stream, with the trigger count they followed. */
  standalone: { afterTrigger: number; step: Step }[];
  /** The session id the server minted over HTTP. */
  sessionId?: string;
}

/** Everything replay needs from a cassette. */
export interface Episodes {
  sessions: RecordedSession[];
  /** The HTTP side of the recording, per exchange (empty for stdio), from the same pass. */
  http: ExchangeIndex;
}

const DEFAULT_SESSION = "default";

function asMessage(entry: MessageEntry): JsonRpcMessage {
  return entry.msg as JsonRpcMessage;
}

function progressTokenOf(message: JsonRpcMessage): string | undefined {
  const params = message.params as JsonObject | undefined;
  const meta = params?._meta as JsonObject | undefined;
  const token = meta?.progressToken ?? (params?.progressToken as Json | undefined);
  return token === undefined || token === null ? undefined : JSON.stringify(token);
}

class SessionBuilder {
  readonly session: RecordedSession;
  #open = new Map<string, Trigger>();
  #byExchange = new Map<number, Trigger>();
  #serverRequests = new Map<string, Extract<Step, { kind: "server-request" }>>();
  #last: Trigger | undefined;
  /** Where this session's disk triggers keep their numbers, with frames on disk. */
  #columns: DiskColumns | undefined;

  /**
   * `oneStream`: HTTP+SSE carries everything on the session's one GET stream,
   * so a message there belongs to a request as on stdio, not to the GET.
   */
  constructor(
    id: string,
    private readonly options: FingerprintOptions,
    private readonly reads: ReadMarks,
    private readonly oneStream = false,
    /** Answers held as their text only (./text_frame.ts). */
    private readonly compact = false,
    /** Where placed frames are read back from: requests and answers stay in the file. */
    private readonly store?: FrameStore,
    /** Where this cassette's disk triggers keep their keys: one for every session. */
    private readonly keys?: KeyArena,
  ) {
    // Placed requests are rows of the session's columns, and its list holds those.
    if (store) this.#columns = new DiskColumns(store, keys!, options);
    const triggers = this.#columns ? triggerList(this.#columns) : [];
    this.session = { id, triggers, opening: [], standalone: [] };
  }

  add(entry: Entry & { line?: number }): void {
    if (entry.type === "session" && entry.event === "start" && entry.sessionId) {
      this.session.sessionId = entry.sessionId;
    }
    if (entry.type === "message") {
      if (entry.dir === "c2s") this.#client(entry);
      else this.#server(entry);
    } else if (entry.type === "raw" && entry.dir === "s2c") {
      this.#place({ kind: "raw", text: entry.text, t: entry.t, sse: entry.sse }, entry);
    } else if (entry.type === "http-end" && entry.reason === "client-closed") {
      // The client gave up on this exchange: a replay that waits is the recording's behaviour.
      const trigger = this.#byExchange.get(entry.x);
      if (trigger) trigger.cancelled = true;
    } else if (entry.type === "sse-event") {
      this.#place({ kind: "sse-event", data: entry.data, t: entry.t, sse: entry.sse }, entry);
    }
  }

  #client(entry: MessageEntry & { line?: number }) {
    const msg = asMessage(entry);
    const kind = classify(msg);
    if (kind === "response" || kind === "error") {
      const asked = this.#serverRequests.get(idKey(msg.id));
      if (asked && !asked.answer) asked.answer = { msg, t: entry.t };
      return;
    }
    if (kind !== "request" && kind !== "notification") return;
    if (msg.method === "notifications/cancelled") this.#noteCancelled(msg);
    const trigger = this.#trigger(entry, msg, kind === "request");
    this.reads.mark(trigger);
    this.session.triggers.push(trigger);
    this.#last = trigger;
    if (trigger.isRequest) this.#open.set(idKey(msg.id), trigger);
    if (entry.x !== undefined) this.#byExchange.set(entry.x, trigger);
  }

  #trigger(entry: MessageEntry & { line?: number }, msg: JsonRpcMessage, isRequest: boolean) {
    const index = this.session.triggers.length;
    const fields = {
      line: entry.line ?? 0,
      t: entry.t,
      x: entry.x,
      appended: entry.appended,
      ...(entry.optional === true ? { optional: true } : {}),
    };
    const place = this.store && framePlace(entry);
    if (place) {
      const key = requestKey(msg, this.options);
      return DiskTrigger.of(this.#columns!, index, place, key, { ...fields, isRequest });
    }
    const request = { msg };
    const key = requestKey(msg, this.options, request);
    return {
      index,
      ...fields,
      request,
      key,
      isRequest,
      steps: NO_STEPS,
      after: NO_STEPS,
    } as Trigger;
  }

  #noteCancelled(msg: JsonRpcMessage) {
    const requestId = (msg.params as JsonObject | undefined)?.requestId;
    if (typeof requestId !== "string" && typeof requestId !== "number") return;
    const trigger = this.#open.get(idKey(requestId));
    if (trigger) trigger.cancelled = true;
  }

  #server(entry: MessageEntry & { line?: number }) {
    const msg = asMessage(entry);
    const kind = classify(msg);
    let text = keptFrameText(entry);
    if (kind === "response" || kind === "error") {
      const trigger = this.#open.get(idKey(msg.id));
      if (trigger) {
        const place = this.store && framePlace(entry);
        if (place && trigger instanceof DiskTrigger) {
          trigger.answeredAt(place, entry.line ?? 0, entry.t, entry.sse);
        } else {
          trigger.response = place
            ? new DiskFrame(this.store!, place, entry.line ?? 0, entry.t, entry.sse)
            : this.compact && text !== undefined
            ? new TextFrame(text, entry.t, entry.sse)
            : withText({ msg, t: entry.t, sse: entry.sse }, text);
        }
        this.#open = withoutKey(this.#open, idKey(msg.id));
        return;
      }
    }
    // An answer nobody asked for in this session: a step, with its text read back.
    const place = this.store && framePlace(entry);
    if (place) text = this.store!.text(place.start, place.end, place.check, entry.line ?? 0);
    const step: Step = withText(
      kind === "request"
        ? { kind: "server-request", msg, t: entry.t, sse: entry.sse }
        : { kind: "message", msg, t: entry.t, sse: entry.sse },
      text,
    );
    if (step.kind === "server-request") this.#serverRequests.set(idKey(msg.id), step);
    this.#place(step, entry, progressTokenOf(msg));
  }

  #place(step: Step, entry: Entry, progressToken?: string) {
    const stream = "sse" in entry && !this.oneStream ? entry.sse?.stream : undefined;
    if (entry.x !== undefined && stream !== "get") {
      const trigger = this.#byExchange.get(entry.x);
      if (trigger) return this.#attach(trigger, step);
    }
    if (stream === "get") {
      this.session.standalone.push({ afterTrigger: this.session.triggers.length, step });
      return;
    }
    // With several requests outstanding (a client that pipelines), output
    // goes to the request whose progress token it carries, else to the
    // earliest outstanding one: a server answers in order, so what it emits
    // belongs to the request it is working on.
    const open = this.#open.values();
    let target: Trigger | undefined;
    for (const trigger of open) {
      if (!target) target = trigger;
      if (!progressToken) break;
      if (progressTokenOf(trigger.request.msg) === progressToken) {
        target = trigger;
        break;
      }
    }
    if (target) return this.#attach(target, step);
    if (this.#last) return this.#attach(this.#last, step);
    this.session.opening.push(step);
  }

  #attach(trigger: Trigger, step: Step) {
    // Most triggers have no steps: they share one empty list until they do.
    if (trigger.isRequest && trigger.response) {
      if (trigger.after === NO_STEPS) trigger.after = [];
      trigger.after.push(step);
    } else {
      if (trigger.steps === NO_STEPS) trigger.steps = [];
      trigger.steps.push(step);
    }
  }
}

/** `frame` with its own text, when it has one. */
function withText<T extends RecordedFrame | Step>(frame: T, text: string | undefined): T {
  if (text !== undefined) (frame as { text?: string }).text = text;
  return frame;
}

/**
 * Builds the episodes entry by entry, so that replay can serve from a
 * cassette still being read: what is known so far is in `sessions`.
 */
export class EpisodeBuilder {
  #builders = new Map<string, SessionBuilder>();
  #http = new ExchangeIndexer();
  #reads = new ReadMarks();
  #keys = new KeyArena();
  /** Every session so far, in the order each first appeared. */
  readonly sessions: RecordedSession[] = [];

  constructor(
    private readonly header: CassetteHeader,
    private readonly options: FingerprintOptions = {},
    /** Hold answers as their text only (./text_frame.ts): the entries must carry every frame text. */
    private readonly compact = false,
    /** Leave placed requests and answers in the file (../cassette/frame_store.ts). */
    private readonly store?: FrameStore,
  ) {}

  /** Adds the cassette's next entry. */
  add(entry: Entry & { line?: number }): void {
    this.#http.add(entry);
    const id = entry.session ?? DEFAULT_SESSION;
    let builder = this.#builders.get(id);
    if (!builder) {
      const oneStream = this.header.transport === "sse";
      builder = new SessionBuilder(
        id,
        this.options,
        this.#reads,
        oneStream,
        this.compact,
        this.store,
        this.#keys,
      );
      this.#builders.set(id, builder);
      this.sessions.push(builder.session);
    }
    builder.add(entry);
  }

  /**
   * The episodes of the whole cassette, once every entry is added. `remarked`
   * tells that a request marked as changing state while the file was read
   * turned out not to (a later `tools/list` marked its tool read-only): the
   * answer books over these triggers must be rebuilt.
   */
  finish(): { episodes: Episodes; remarked: boolean } {
    const sessions = this.sessions;
    const remarked = markReads(sessions);
    // A session that never said anything (a probe that connected and left) serves nobody.
    const useful = sessions.filter((session) =>
      session.triggers.length > 0 || session.opening.length > 0
    );
    for (const session of sessions) {
      for (const trigger of session.triggers) {
        if (trigger.x !== undefined) trigger.exchange = this.#http.index.exchanges.get(trigger.x);
      }
    }
    const episodes = { sessions: useful.length > 0 ? useful : sessions, http: this.#http.index };
    return { episodes, remarked };
  }
}

/** Groups a cassette's entries into sessions of triggers and reactions. */
export function buildEpisodes(cassette: Cassette, options: FingerprintOptions = {}): Episodes {
  const builder = new EpisodeBuilder(cassette.header, options);
  for (const entry of cassette.entries) builder.add(entry);
  return builder.finish().episodes;
}
