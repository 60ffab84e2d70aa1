/**
 * The Streamable HTTP front end of replay. It serves the era the cassette
 * was recorded in (`engine.era`), never a guess:
 *
 * - legacy (2025-03-26 … 2025-11-25): `initialize` opens a session (a fresh
 *   `Mcp-Session-Id` when the recording had them), each new client session
 *   is served from the next recorded one; every request is answered the way
 *   it was recorded (JSON body or SSE stream with the same events, ids,
 *   retry values and priming event); the GET stream delivers the recorded
 *   unsolicited messages; `Last-Event-ID` resumes; DELETE ends a session.
 * - modern (2026-07-28): POST only, no sessions, required headers checked
 *   against the body with the spec's status and error codes.
 * - a cassette recorded on the old HTTP+SSE transport (header
 *   `transport: "sse"`) is served on that transport ({@linkcode LegacySseFrontEnd}).
 *
 * docs/http.md describes what crosses between stdio and HTTP.
 *
 * @module
 */
import { untilInterrupted } from "../runtime/signals.ts";
import { randomId } from "../http/random_id.ts";
import { ErrorCode } from "../jsonrpc.ts";
import type { Json, JsonObject, JsonRpcMessage } from "../jsonrpc.ts";
import type { SseFields } from "../cassette/format.ts";
import { encodeSseEvent } from "../framing/sse.ts";
import type { SseEvent } from "../framing/sse.ts";
import type { Fault } from "../faults/types.ts";
import { runtime } from "../runtime/mod.ts";
import { accepts, decodeHeaderValue, mediaType } from "../http/headers.ts";
import { jsonResponse, jsonRpcHttpError, readTextCapped } from "../http/body.ts";
import { checkHostAndOrigin, exposureWarning, originFor, parseListen } from "../http/guard.ts";
import type { ListenAddress } from "../http/guard.ts";
import type { ReplayEngine } from "./engine.ts";
import type { ReplaySession } from "./session.ts";
import type { Outlet } from "./outlet.ts";
import { answerBatch, receiveGuarded } from "./batch.ts";
import type { ReplayReport } from "./report.ts";
import type { RecordedSession, Step, Trigger } from "./episodes.ts";
import { SseChannel } from "./http/channel.ts";
import { indexExchanges } from "./http/exchanges.ts";
import type { ExchangeIndex, RecordedExchange } from "./http/exchanges.ts";
import { LegacySseFrontEnd, recordedStreamPath } from "./http/legacy_sse.ts";

/** Options of {@linkcode serveHttp}. */
export interface HttpServeOptions {
  /** `HOST:PORT`; port 0 picks a free one. */
  listen: string;
  /** Called with the URL to give the client, once listening. */
  onListening?: (url: string) => void;
  /** Resolves when the server should stop (default: SIGINT/SIGTERM). */
  until?: Promise<void>;
  log?: (line: string) => void;
  /** Largest request body accepted, in bytes (default 4 MiB). */
  maxBodyBytes?: number;
  /** Most SSE streams open at once (default 1024). */
  maxStreams?: number;
  /** Idle connections are closed after this many milliseconds (default 30000). */
  idleTimeoutMs?: number;
}

/** Legacy protocol revisions the replay server accepts in `MCP-Protocol-Version`. */
export const LEGACY_VERSIONS = ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"];
const MODERN_VERSION = "2026-07-28";
const VERSION_META = "io.modelcontextprotocol/protocolVersion";
const HEADER_MISMATCH = -32020;
const UNSUPPORTED_VERSION = -32022;
const SESSION_NOT_FOUND = -32001;

/** Methods of the protocol; anything else is an unknown method (modern: 404). */
const KNOWN_METHODS = new Set([
  "initialize",
  "ping",
  "server/discover",
  "tools/list",
  "tools/call",
  "resources/list",
  "resources/read",
  "resources/templates/list",
  "resources/subscribe",
  "resources/unsubscribe",
  "prompts/list",
  "prompts/get",
  "completion/complete",
  "logging/setLevel",
  "subscriptions/listen",
  "tasks/get",
  "tasks/list",
  "tasks/result",
  "tasks/cancel",
]);
/** Methods whose target travels in `Mcp-Name` (modern era). */
const NAMED: Record<string, string> = {
  "tools/call": "name",
  "prompts/get": "name",
  "resources/read": "uri",
};

function isObject(value: unknown): value is JsonObject {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

function isRequest(message: JsonObject): boolean {
  return typeof message.method === "string" && "id" in message && message.id !== null;
}

/** One live client session of the legacy era. */
class LiveSession {
  ended = false;
  /** Client requests and notifications received (the standalone stream's clock). */
  triggers = 0;
  get: SseChannel | undefined;
  #standaloneSent = 0;
  /** Every event with an id sent in this session, for Last-Event-ID. */
  log: { stream: number; id: string; text: string }[] = [];
  /** Streams closed early (recorded that way) whose remaining events wait for a GET resumption. */
  detached = new Map<number, { queue: string[]; target?: SseChannel; done: boolean }>();
  #streams = 0;

  constructor(
    readonly replay: ReplaySession,
    readonly sessionId: string | undefined,
    private readonly server: HttpReplayServer,
  ) {}

  newStream(): number {
    return ++this.#streams;
  }

  get recording(): RecordedSession | undefined {
    return this.replay.recording;
  }

  /** Sends the recorded standalone messages now due. */
  pump(): void {
    const standalone = this.recording?.standalone ?? [];
    while (this.#standaloneSent < standalone.length && this.get && !this.get.closed) {
      const { afterTrigger, step } = standalone[this.#standaloneSent];
      if (afterTrigger > this.triggers) return;
      this.#standaloneSent++;
      this.sendOnGet(stepEvent(step));
    }
  }

  sendOnGet(event: SseEvent | undefined): void {
    if (!event || !this.get || this.get.closed) return;
    const text = this.get.write(event);
    if (text && event.id !== undefined) this.log.push({ stream: 0, id: event.id, text });
  }

  close(): void {
    this.ended = true;
    this.get?.close();
    this.replay.close();
    void this.server;
  }
}

/** The SSE event for a recorded step, as recorded. */
function stepEvent(step: Step): SseEvent | undefined {
  if (step.kind === "sse-event") return sseEvent(step.data, step.sse);
  if (step.kind === "raw") return sseEvent(step.text, step.sse);
  return sseEvent(step.text ?? JSON.stringify(step.msg), step.sse);
}

function sseEvent(data: string, sse: SseFields | undefined): SseEvent {
  const event: SseEvent = { data };
  if (sse?.id !== undefined) event.id = sse.id;
  if (sse === undefined) event.event = "message";
  else if (sse.event !== undefined) event.event = sse.event;
  if (sse?.retry !== undefined) event.retry = sse.retry;
  return event;
}

const DONE: Promise<void> = Promise.resolve();

/**
 * What replaying one POSTed request produces: a JSON body or an SSE stream.
 * It is the engine's {@linkcode Outlet} for that request.
 */
class Reply implements Outlet {
  readonly response: Promise<Response>;
  #resolve!: (response: Response) => void;
  #settled = false;
  recorded: RecordedExchange | undefined;
  #channel: SseChannel | undefined;
  #stream = 0;
  #respondedOnStream = false;
  #dropAfter: number | undefined;
  #detached: { queue: string[]; target?: SseChannel; done: boolean } | undefined;
  /** No recording matched (the engine answered a miss, or nothing). */
  missed = true;

  constructor(
    private readonly live: LiveSession | undefined,
    private readonly requestId: Json,
    private readonly headers: Record<string, string>,
    private readonly server: HttpReplayServer,
  ) {
    this.response = new Promise((resolve) => (this.#resolve = resolve));
  }

  #settle(response: Response) {
    if (this.#settled) return;
    this.#settled = true;
    this.#resolve(response);
  }

  #isAnswer(message: JsonRpcMessage): boolean {
    // Request ids are strings or numbers, so identity is equality.
    return message.method === undefined && message.id === this.requestId;
  }

  #status(): number {
    return this.recorded?.response?.status ?? 200;
  }

  #openStream(): SseChannel | undefined {
    if (this.#channel) return this.#channel;
    if (this.#settled) return undefined;
    const channel = this.server.openChannel();
    if (!channel) {
      this.#settle(
        jsonRpcHttpError(503, this.requestId, ErrorCode.InternalError, "Too many open streams"),
      );
      return undefined;
    }
    this.#channel = channel;
    this.#stream = this.live?.newStream() ?? 0;
    this.#settle(
      new Response(channel.body, {
        status: this.#status(),
        headers: {
          ...this.headers,
          "content-type": "text/event-stream",
          "cache-control": "no-cache",
          "x-accel-buffering": "no",
        },
      }),
    );
    return channel;
  }

  /** Writes one event on this request's stream (or where it went after an early close). */
  #write(event: SseEvent) {
    if (this.#detached) {
      const text = encodeSseEvent(event);
      if (this.#detached.target && !this.#detached.target.closed) {
        this.#detached.target.writeText(text);
      } else this.#detached.queue.push(text);
      if (event.id !== undefined) this.live?.log.push({ stream: this.#stream, id: event.id, text });
      return;
    }
    const channel = this.#openStream();
    if (!channel) return;
    const text = channel.write(event);
    if (text && event.id !== undefined) {
      this.live?.log.push({ stream: this.#stream, id: event.id, text });
    }
    // An sse-drop fault cuts the stream here; recorded early closes (SSE polling)
    // happen after the recorded number of events. Either way the rest of the
    // stream waits for the client to resume with GET and Last-Event-ID.
    const recorded = this.recorded;
    const dropped = this.#dropAfter !== undefined && channel.sent >= this.#dropAfter;
    const closedEarly = recorded && !recorded.carriedResponse &&
      recorded.end?.reason === "complete" &&
      recorded.response?.body === "sse" && channel.sent >= recorded.events;
    if (dropped && !this.live) channel.close();
    else if (this.live && (dropped || closedEarly)) this.#detach(channel, this.live);
  }

  #detach(channel: SseChannel, live: LiveSession) {
    channel.close();
    this.#detached = { queue: [], done: false };
    live.detached.set(this.#stream, this.#detached);
  }

  begin(trigger: Trigger): void {
    this.missed = false;
    this.recorded = trigger.x === undefined
      ? undefined
      : this.server.index.exchanges.get(trigger.x);
  }

  send(message: JsonRpcMessage, sse?: SseFields, text?: string): Promise<void> {
    this.#send(message, sse, text ?? JSON.stringify(message));
    return DONE;
  }

  #send(message: JsonRpcMessage, sse: SseFields | undefined, text: string): void {
    const answer = this.#isAnswer(message);
    if (!answer && sse?.stream === "get" && this.live) {
      this.live.sendOnGet(sseEvent(text, sse));
      return;
    }
    const recordedJson = this.recorded?.response?.body === "json";
    if (
      !this.#channel && !this.#detached && answer &&
      (recordedJson || (!this.recorded && sse === undefined))
    ) {
      this.#settle(jsonResponse(text, this.#status(), this.headers));
      return;
    }
    if (answer) this.#respondedOnStream = true;
    this.#write(sseEvent(text, sse));
  }

  raw(text: string, sse?: SseFields): Promise<void> {
    if (!this.#channel && !this.#detached && this.recorded?.response?.body !== "sse") {
      this.#settle(jsonResponse(text, this.#status(), this.headers));
    } else this.#write(sseEvent(text, sse));
    return DONE;
  }

  event(data: string, sse: SseFields): Promise<void> {
    this.#write(sseEvent(data, sse));
    return DONE;
  }

  fault(fault: Fault): Promise<boolean> {
    return Promise.resolve(this.#fault(fault));
  }

  #fault(fault: Fault): boolean {
    if (fault.kind === "http-status") {
      if (this.#settled) return false;
      this.#settle(
        new Response(fault.body ?? null, {
          status: fault.status,
          headers: { ...this.headers, ...fault.headers },
        }),
      );
      return true;
    }
    if (fault.kind === "sse-drop") {
      this.#dropAfter = fault.afterEvents;
      return false;
    }
    if (fault.kind === "disconnect") {
      if (this.#channel) this.#channel.error();
      else {
        const channel = this.#openStream();
        channel?.error();
      }
      return true;
    }
    return false;
  }

  /** The request's replay is over: close what was recorded closed, keep open what the client closed. */
  finish(): void {
    const missed = this.missed;
    if (this.#detached) {
      this.#detached.done = true;
      this.#detached.target?.close();
      return;
    }
    if (!this.#settled) {
      if (this.recorded?.end?.reason === "upstream-error") {
        this.#settle(
          jsonRpcHttpError(
            502,
            this.requestId,
            ErrorCode.InternalError,
            `Bad gateway (recorded): ${this.recorded.end.error ?? ""}`,
          ),
        );
        return;
      }
      // Never answered in the recording: the stream stays open until the client leaves.
      this.#openStream();
      if (missed) this.#channel?.close();
      return;
    }
    const keepOpen = !this.#respondedOnStream && this.recorded?.end?.reason === "client-closed";
    if (!keepOpen) this.#channel?.close();
  }
}

/** The replay server's state. */
class HttpReplayServer {
  readonly index: ExchangeIndex;
  readonly era;
  #sessions = new Map<string, LiveSession>();
  #sessionless: LiveSession | undefined;
  #modernSession: ReplaySession | undefined;
  #usesSessionIds: boolean;
  #openStreams = 0;
  #supportedModern: string[];
  /** Set when the cassette was recorded on HTTP+SSE: that transport is served instead. */
  readonly legacySse: LegacySseFrontEnd | undefined;
  bound!: ListenAddress;

  constructor(readonly engine: ReplayEngine, readonly options: HttpServeOptions) {
    this.index = indexExchanges(engine.cassette);
    this.era = engine.era;
    this.#usesSessionIds = engine.episodes.sessions.some((session) =>
      session.sessionId !== undefined
    );
    this.#supportedModern = modernVersions(engine);
    if (this.era === "modern") this.#dropRecordedRefusals();
    if (engine.cassette.header.transport === "sse") {
      this.legacySse = new LegacySseFrontEnd(engine, {
        openChannel: () => this.openChannel(),
        maxBodyBytes: options.maxBodyBytes ?? 4 * 1024 * 1024,
        log: options.log,
      });
    }
  }

  openChannel(): SseChannel | undefined {
    if (this.#openStreams >= (this.options.maxStreams ?? 1024)) return undefined;
    const channel = new SseChannel();
    this.#openStreams++;
    channel.onClose(() => this.#openStreams--);
    return channel;
  }

  async handle(request: Request): Promise<Response> {
    const refused = checkHostAndOrigin(request, this.bound);
    if (refused) {
      return jsonRpcHttpError(refused.status, null, ErrorCode.InvalidRequest, refused.message);
    }
    // Only metadata and HTTP+SSE need the parsed URL; the rest pass on the path's prefix.
    const url = request.url;
    if (url.startsWith("/.well-known/", url.indexOf("/", url.indexOf("//") + 2))) {
      return this.#wellKnown(new URL(url));
    }
    if (this.legacySse) return await this.legacySse.handle(request, new URL(url));
    if (this.era === "modern") return await this.#modern(request);
    if (request.method === "POST") return await this.#legacyPost(request);
    if (request.method === "GET") return this.#legacyGet(request);
    if (request.method === "DELETE") return this.#legacyDelete(request);
    return new Response(null, { status: 405, headers: { allow: "GET, POST, DELETE" } });
  }

  /** Serves recorded well-known metadata, as recorded; 404 otherwise. */
  #wellKnown(url: URL): Response {
    for (const exchange of this.index.exchanges.values()) {
      if (
        exchange.request?.method === "GET" && exchange.request.path === url.pathname + url.search &&
        exchange.response?.text
      ) {
        const origin = originFor(this.bound.hostname, this.bound.port);
        const text = exchange.response.text.replace(
          /"resource"\s*:\s*"https?:\/\/[^/"]+/,
          `"resource":"${origin}`,
        );
        return jsonResponse(text, exchange.response.status);
      }
    }
    return new Response("Not Found", { status: 404 });
  }

  /** Shared POST checks: Accept, Content-Type, size, JSON. */
  async #readPost(request: Request): Promise<{ body: Json } | { error: Response }> {
    const accept = request.headers.get("accept");
    if (!accepts(accept, "application/json") || !accepts(accept, "text/event-stream")) {
      return {
        error: jsonRpcHttpError(
          406,
          null,
          ErrorCode.InvalidRequest,
          "Not Acceptable: Accept must list application/json and text/event-stream",
        ),
      };
    }
    if (mediaType(request.headers.get("content-type")) !== "application/json") {
      return {
        error: jsonRpcHttpError(
          415,
          null,
          ErrorCode.InvalidRequest,
          "Unsupported Media Type: Content-Type must be application/json",
        ),
      };
    }
    const read = await readTextCapped(request, this.options.maxBodyBytes ?? 4 * 1024 * 1024);
    if (read.tooLarge) {
      return { error: jsonRpcHttpError(413, null, ErrorCode.InvalidRequest, "Payload Too Large") };
    }
    try {
      return { body: JSON.parse(read.text) as Json };
    } catch {
      return {
        error: jsonRpcHttpError(
          400,
          null,
          ErrorCode.ParseError,
          "Parse error: the body is not valid JSON",
        ),
      };
    }
  }

  #sessionHeaders(live: LiveSession | undefined): Record<string, string> {
    return live?.sessionId ? { "mcp-session-id": live.sessionId } : {};
  }

  /** The live session a legacy request belongs to, or the refusal. */
  #legacySession(request: Request): LiveSession | Response {
    const sessionId = request.headers.get("mcp-session-id");
    if (!this.#usesSessionIds) {
      return this.#sessionless ??= new LiveSession(this.engine.openSession(), undefined, this);
    }
    if (!sessionId) {
      return jsonRpcHttpError(
        400,
        null,
        ErrorCode.InvalidRequest,
        "Bad Request: Mcp-Session-Id header is required",
      );
    }
    const live = this.#sessions.get(sessionId);
    if (!live || live.ended) {
      return jsonRpcHttpError(404, null, SESSION_NOT_FOUND, "Session not found");
    }
    return live;
  }

  #checkLegacyVersion(request: Request): Response | undefined {
    const version = request.headers.get("mcp-protocol-version");
    if (version !== null && !LEGACY_VERSIONS.includes(version)) {
      return jsonRpcHttpError(
        400,
        null,
        ErrorCode.InvalidRequest,
        `Bad Request: Unsupported protocol version: ${version} (supported versions: ${
          LEGACY_VERSIONS.join(", ")
        })`,
      );
    }
    return undefined;
  }

  async #legacyPost(request: Request): Promise<Response> {
    const read = await this.#readPost(request);
    if ("error" in read) return read.error;
    const messages = Array.isArray(read.body) ? read.body : [read.body];
    const batch = Array.isArray(read.body) && read.body.length > 0;
    if (!batch && !messages.every(isObject)) {
      return jsonRpcHttpError(
        400,
        null,
        ErrorCode.InvalidRequest,
        "Invalid Request: not a JSON-RPC message",
      );
    }
    const objects = messages.filter(isObject) as JsonObject[];
    const initialize = objects.find((message) =>
      message.method === "initialize" && isRequest(message)
    );
    let live: LiveSession;
    if (initialize) {
      if (objects.length > 1) {
        return jsonRpcHttpError(
          400,
          null,
          ErrorCode.InvalidRequest,
          "Invalid Request: initialize must be sent alone",
        );
      }
      const sessionId = this.#usesSessionIds ? randomId() : undefined;
      live = new LiveSession(this.engine.openSession(), sessionId, this);
      if (sessionId) this.#sessions.set(sessionId, live);
      else {
        this.#sessionless?.close();
        this.#sessionless = live;
      }
    } else {
      const found = this.#legacySession(request);
      if (found instanceof Response) return found;
      live = found;
      const refused = this.#checkLegacyVersion(request);
      if (refused) return refused;
    }
    if (batch && (messages.length > 1 || !isObject(messages[0]))) {
      return await this.#batch(live, messages);
    }
    const requests = objects.filter(isRequest);
    if (requests.length === 0) {
      for (const message of objects) this.#receiveBackground(live, message);
      return new Response(null, { status: 202, headers: this.#sessionHeaders(live) });
    }
    if (objects.length > 1) return await this.#batch(live, objects);
    return await this.#replyTo(live, objects[0], this.#sessionHeaders(live));
  }

  /** A message whose outputs, if any, belong on the GET stream (notifications, client answers). */
  #receiveBackground(live: LiveSession, message: JsonObject) {
    if (typeof message.method === "string") live.triggers++;
    receiveGuarded(live.replay, message, this.#background(live), this.options.log)
      .finally(() => live.pump());
    live.pump();
  }

  /** Where what a background message causes goes: the session's GET stream. */
  #background(live: LiveSession): Outlet {
    return {
      send: (msg, sse, text) =>
        Promise.resolve(
          live.sendOnGet(sseEvent(text ?? JSON.stringify(msg), sse ?? { stream: "get" })),
        ),
      raw: (text, sse) => Promise.resolve(live.sendOnGet(sseEvent(text, sse))),
      event: (data, sse) => Promise.resolve(live.sendOnGet(sseEvent(data, sse))),
      fault: () => Promise.resolve(false),
    };
  }

  /** Replays one request; resolves with its response once the first byte of it is known. */
  #replyTo(
    live: LiveSession | undefined,
    message: JsonObject,
    headers: Record<string, string>,
    replay?: ReplaySession,
  ): Promise<Response> {
    const session = replay ?? live!.replay;
    if (live) live.triggers++;
    const reply = new Reply(live, message.id as Json, headers, this);
    const finish = () => {
      reply.finish();
      live?.pump();
    };
    receiveGuarded(session, message, reply, this.options.log).then(finish);
    live?.pump();
    return reply.response;
  }

  /** A 2025-03-26 batch: the answers go back as one JSON array (see ./replay/batch.ts). */
  async #batch(live: LiveSession, messages: unknown[]): Promise<Response> {
    for (const message of messages) {
      if (isObject(message) && typeof message.method === "string") live.triggers++;
    }
    const answers = await answerBatch(
      live.replay,
      messages,
      this.#background(live),
      this.options.log,
    );
    live.pump();
    if (answers === undefined) {
      return new Response(null, { status: 202, headers: this.#sessionHeaders(live) });
    }
    return jsonResponse(answers, 200, this.#sessionHeaders(live));
  }

  #legacyGet(request: Request): Response {
    if (!accepts(request.headers.get("accept"), "text/event-stream")) {
      return jsonRpcHttpError(
        406,
        null,
        ErrorCode.InvalidRequest,
        "Not Acceptable: Accept must list text/event-stream",
      );
    }
    const found = this.#legacySession(request);
    if (found instanceof Response) return found;
    const live = found;
    const refused = this.#checkLegacyVersion(request);
    if (refused) return refused;
    const lastEventId = request.headers.get("last-event-id");
    if (lastEventId !== null) return this.#resume(live, lastEventId);
    const recorded = live.recording;
    const status = recorded ? this.index.getStatus.get(recorded.id) : undefined;
    const serveStream = status === undefined
      ? (recorded?.standalone.length ?? 0) > 0
      : status === 200;
    if (!serveStream) {
      return new Response(null, {
        status: status && status !== 200 ? status : 405,
        headers: { allow: "POST, DELETE" },
      });
    }
    if (live.get && !live.get.closed) {
      return jsonRpcHttpError(
        409,
        null,
        ErrorCode.InvalidRequest,
        "Conflict: only one SSE stream is allowed per session",
      );
    }
    const channel = this.openChannel();
    if (!channel) {
      return jsonRpcHttpError(503, null, ErrorCode.InternalError, "Too many open streams");
    }
    live.get = channel;
    // Recorded servers prime the stream; so does the replay, to flush the headers.
    channel.writeText(": stream open\n\n");
    live.pump();
    return new Response(channel.body, {
      status: 200,
      headers: {
        ...this.#sessionHeaders(live),
        "content-type": "text/event-stream",
        "cache-control": "no-cache",
        "x-accel-buffering": "no",
      },
    });
  }

  /** GET with Last-Event-ID: the rest of that stream, as recorded. */
  #resume(live: LiveSession, lastEventId: string): Response {
    const at = live.log.findIndex((event) => event.id === lastEventId);
    if (at < 0) {
      return jsonRpcHttpError(
        404,
        null,
        ErrorCode.InvalidRequest,
        `Unknown Last-Event-ID ${lastEventId}`,
      );
    }
    const stream = live.log[at].stream;
    const channel = this.openChannel();
    if (!channel) {
      return jsonRpcHttpError(503, null, ErrorCode.InternalError, "Too many open streams");
    }
    const resent = new Set<string>();
    for (const event of live.log.slice(at + 1)) {
      if (event.stream !== stream) continue;
      channel.writeText(event.text);
      resent.add(event.text);
    }
    const detached = live.detached.get(stream);
    if (detached) {
      // Events with an id are in the log as well as the queue: send each once.
      for (const text of detached.queue.splice(0)) if (!resent.has(text)) channel.writeText(text);
      if (detached.done) channel.close();
      else detached.target = channel;
    } else if (stream === 0) {
      live.get?.close();
      live.get = channel;
      live.pump();
    } else {
      channel.close();
    }
    return new Response(channel.body, {
      status: 200,
      headers: {
        ...this.#sessionHeaders(live),
        "content-type": "text/event-stream",
        "cache-control": "no-cache",
      },
    });
  }

  #legacyDelete(request: Request): Response {
    const found = this.#legacySession(request);
    if (found instanceof Response) return found;
    found.close();
    this.engine.release(found.replay);
    if (found === this.#sessionless) this.#sessionless = undefined;
    // A deleted session is forgotten: a later request with its id gets 404
    // as an unknown one does. Keeping deleted sessions (or only their ids)
    // made a long-running replay grow with every session it served.
    if (found.sessionId) this.#sessions.delete(found.sessionId);
    return new Response(null, { status: 200 });
  }

  async #modern(request: Request): Promise<Response> {
    if (request.method !== "POST") {
      return new Response(null, { status: 405, headers: { allow: "POST" } });
    }
    const read = await this.#readPost(request);
    if ("error" in read) return read.error;
    const body = read.body;
    if (!isObject(body)) {
      return jsonRpcHttpError(
        400,
        null,
        ErrorCode.InvalidRequest,
        "Invalid Request: one JSON-RPC message per POST",
      );
    }
    const id = (isRequest(body) ? body.id : null) as Json;
    const refused = this.#checkModernHeaders(request, body, id);
    if (refused) return refused;
    this.#modernSession ??= this.engine.openSession();
    if (!isRequest(body)) {
      void this.#modernSession.receive(body, {
        send: () => Promise.resolve(),
        raw: () => Promise.resolve(),
        fault: () => Promise.resolve(false),
      });
      return new Response(null, { status: 202 });
    }
    if (!KNOWN_METHODS.has(body.method as string)) {
      return jsonRpcHttpError(
        404,
        id,
        ErrorCode.MethodNotFound,
        `Method not found: ${body.method}`,
      );
    }
    return await this.#replyTo(undefined, body, {}, this.#modernSession);
  }

  /**
   * The replay answers a request that breaks the header rules itself, without
   * taking a recorded answer. So the recorded requests that broke them (and
   * the upstream's refusals) are left out: otherwise a later request with the
   * same body that keeps the rules would be served a recorded refusal.
   */
  #dropRecordedRefusals(): void {
    for (const session of this.engine.episodes.sessions) {
      const kept = session.triggers.filter((trigger) => {
        const recorded = trigger.x === undefined
          ? undefined
          : this.index.exchanges.get(trigger.x)?.request;
        const body = trigger.msg as unknown;
        if (!recorded || !isObject(body)) return true;
        const id = (isRequest(body) ? body.id : null) as Json;
        return this.#checkModernHeaders({ headers: new Headers(recorded.headers) }, body, id) ===
          undefined;
      });
      session.triggers.splice(0, session.triggers.length, ...kept);
    }
  }

  /** The 2026-07-28 header rules: version, Mcp-Method, Mcp-Name, each against the body. */
  #checkModernHeaders(
    request: { headers: Headers },
    body: JsonObject,
    id: Json,
  ): Response | undefined {
    const params = isObject(body.params) ? body.params : {};
    const meta = isObject(params._meta) ? params._meta : {};
    const bodyVersion = typeof meta[VERSION_META] === "string"
      ? meta[VERSION_META] as string
      : undefined;
    const header = request.headers.get("mcp-protocol-version");
    const requested = header ?? bodyVersion;
    if (requested !== undefined && !this.#supportedModern.includes(requested)) {
      return jsonRpcHttpError(
        400,
        id,
        UNSUPPORTED_VERSION,
        `Unsupported protocol version: ${requested}`,
        {
          supported: this.#supportedModern,
          requested,
        },
      );
    }
    if (header === null || (bodyVersion !== undefined && header !== bodyVersion)) {
      return jsonRpcHttpError(
        400,
        id,
        HEADER_MISMATCH,
        "Header mismatch: MCP-Protocol-Version must equal the request's protocol version",
      );
    }
    if (typeof body.method === "string") {
      const method = request.headers.get("mcp-method");
      if (method === null || decodeHeaderValue(method) !== body.method) {
        return jsonRpcHttpError(
          400,
          id,
          HEADER_MISMATCH,
          `Header mismatch: Mcp-Method must be ${body.method}`,
        );
      }
      const field = NAMED[body.method];
      if (field) {
        const name = request.headers.get("mcp-name");
        const expected = params[field];
        if (name === null || decodeHeaderValue(name) !== expected) {
          return jsonRpcHttpError(
            400,
            id,
            HEADER_MISMATCH,
            `Header mismatch: Mcp-Name must equal params.${field}`,
          );
        }
      }
    }
    return undefined;
  }

  finish(): void {
    this.legacySse?.finish();
    for (const live of this.#sessions.values()) live.close();
    this.#sessionless?.close();
  }
}

/** The versions a modern recording's server said it supports. */
function modernVersions(engine: ReplayEngine): string[] {
  for (const session of engine.episodes.sessions) {
    for (const trigger of session.triggers) {
      if (trigger.key.method !== "server/discover") continue;
      const result = trigger.response?.msg.result;
      if (isObject(result) && Array.isArray(result.supportedVersions)) {
        return result.supportedVersions.filter((v): v is string => typeof v === "string");
      }
    }
  }
  return [engine.cassette.header.protocolVersion ?? MODERN_VERSION];
}

/**
 * Serves the engine's cassette over HTTP until told to stop; resolves with the report.
 *
 * @example
 * ```ts
 * const report = await serveHttp(new ReplayEngine(cassette), { listen: "127.0.0.1:0", onListening: console.log });
 * ```
 */
export async function serveHttp(
  engine: ReplayEngine,
  options: HttpServeOptions,
): Promise<ReplayReport> {
  const bound = parseListen(options.listen);
  const warning = exposureWarning(bound.hostname);
  if (warning) options.log?.(warning);
  const server = new HttpReplayServer(engine, options);
  const http = await runtime.serve(
    {
      hostname: bound.hostname,
      port: bound.port,
      maxHeaderBytes: 16 * 1024,
      idleTimeoutMs: options.idleTimeoutMs ?? 30_000,
      exposed: warning !== undefined,
    },
    (request) => server.handle(request),
  );
  server.bound = { hostname: bound.hostname, port: http.port };
  const path = server.legacySse
    ? pathOf(engine.cassette.header.server.url) ?? recordedStreamPath(engine.cassette) ?? "/sse"
    : server.index.path ?? pathOf(engine.cassette.header.server.url) ?? "/mcp";
  options.onListening?.(originFor(bound.hostname, http.port) + path);
  const stop = options.until ?? untilInterrupted();
  await stop;
  server.finish();
  await http.close();
  return engine.finish();
}

function pathOf(url: string | undefined): string | undefined {
  if (!url) return undefined;
  try {
    return new URL(url).pathname;
  } catch {
    return undefined;
  }
}
