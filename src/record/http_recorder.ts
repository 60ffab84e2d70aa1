/**
 * The HTTP recorder's state for one run: the client sessions, the deferred
 * header and its era, and the handling of one request, from reading its
 * body to relaying the upstream's answer (./http.ts serves it).
 *
 * @module
 */
import { makeHeader } from "../cassette/format.ts";
import type {
  CassetteHeader,
  Direction,
  Entry,
  Era,
  MessageEntry,
  SseFields,
} from "../cassette/format.ts";
import type { CassetteWriter } from "../cassette/writer.ts";
import { entryText, keepFrameText, ownFrameText } from "../cassette/frame_text.ts";
import { batchTooLarge, ErrorCode, MAX_BATCH_SIZE } from "../jsonrpc/messages.ts";
import type { Json, JsonObject } from "../jsonrpc/messages.ts";
import { mediaType, scrubHeaders } from "../http/headers.ts";
import type { HeaderRedactor } from "../http/headers.ts";
import { errorReply } from "../http/body.ts";
import type { Redactor } from "../redact/mod.ts";
import { clockNow, elapsed, notRecordedNote, notRecordedText } from "./frames.ts";
import { eraOf, isJsonRpc, messagesOf } from "./http_messages.ts";
import type { LiveSession } from "./http_sse.ts";
import { forwardRequest, readClientBody } from "./http_exchange.ts";
import type { ClientBody, ClientRequest, ExchangeHost, RequestView } from "./http_exchange.ts";
import type { Upstream } from "./http_upstream.ts";
import { requestTimeout } from "../runtime/request_deadline.ts";
import type { BodyDeadline } from "../runtime/mod.ts";

/** What the recorder needs of the recording's options. */
export interface RecorderSettings {
  redactor?: Redactor;
  log?: (line: string) => void;
  /** Largest request body accepted, in bytes. */
  maxBodyBytes: number;
  /** Clients authenticate to the recorder itself (`--token`): their Authorization is not sent on. */
  ownToken?: boolean;
}

/** The recorder's state for one run. */
export class HttpRecorder implements ExchangeHost {
  #writer: CassetteWriter;
  #start = clockNow();
  #exchange = 0;
  #sessions = new Map<string, LiveSession>();
  #sessionCount = 0;
  /** The latest session opened without a session id (servers that mint none, HTTP+SSE endpoints). */
  #sessionless: LiveSession | undefined;
  #sseEndpoints = new Map<string, LiveSession>();
  #era: Era | undefined;
  #transport: "http" | "sse" = "http";
  /**
   * Every request seen until the era is decided, for an answer that arrives
   * on another stream (HTTP+SSE, resumption); emptied then, so a long
   * recording does not keep every request it ever forwarded.
   */
  #allRequests = new Map<string, JsonObject>();
  /**
   * Lines serialised but not yet written: an exchange's lines go out in one
   * write (with those of every other exchange in flight), before its answer
   * does, rather than one write each (a write was a tenth of the recorder's
   * CPU under load).
   */
  #lines = "";
  #batch: Promise<void> | undefined;
  proxyOrigin = "";

  constructor(
    writer: CassetteWriter,
    readonly upstream: Upstream,
    readonly settings: RecorderSettings,
  ) {
    this.#writer = writer;
  }

  /** The redactor, as the header scrubber sees it. */
  get headerRedactor(): HeaderRedactor | undefined {
    return this.settings.redactor as unknown as HeaderRedactor | undefined;
  }

  append(entry: Entry): void {
    // Held entries are the writer's business (and its `.pending` file's) until the era is known.
    if (this.#writer.deferred) this.#writer.append(entry);
    else this.#lines += entryText(entry) + "\n";
  }

  /** Writes the lines appended since the last flush, in one write. */
  flush(): void {
    if (this.#lines === "") return;
    const lines = this.#lines;
    this.#lines = "";
    try {
      this.#writer.appendLines(lines);
    } catch (error) {
      // Kept for the next flush, whose caller (an answer's) sees the failure.
      this.#lines = lines + this.#lines;
      throw error;
    }
  }

  /**
   * Flushes once the exchanges being handled in this turn have appended
   * theirs: one write for all of them. Resolves after that write (rejects
   * when it failed, the lines kept for the next flush). A microtask runs
   * before the event loop moves any byte, so lines flushed this way are on
   * disk before the bytes they record are sent by a caller that awaits it.
   */
  flushed(): Promise<void> {
    return this.#batch ??= Promise.resolve().then(() => {
      this.#batch = undefined;
      this.flush();
    });
  }

  #flushSoon(): void {
    // A failure here is thrown again to the next answer's flush.
    this.flushed().catch(() => {});
  }

  t(): number {
    return elapsed(this.#start);
  }

  newSession(prefix: string): LiveSession {
    return { name: `${prefix}-${++this.#sessionCount}`, started: false, ended: false };
  }

  startSession(session: LiveSession, sessionId?: string): void {
    if (session.started) return;
    session.started = true;
    if (sessionId) {
      session.sessionId = sessionId;
      this.#sessions.set(sessionId, session);
    }
    this.append({
      type: "session",
      t: this.t(),
      session: session.name,
      event: "start",
      ...(sessionId ? { sessionId } : {}),
    });
  }

  endSession(session: LiveSession, reason: string): void {
    if (session.ended || !session.started) return;
    session.ended = true;
    this.append({ type: "session", t: this.t(), session: session.name, event: "end", reason });
  }

  /** Ends every open session and closes the cassette. */
  async finish(): Promise<void> {
    for (const session of new Set([...this.#sessions.values(), ...this.#sseEndpoints.values()])) {
      this.endSession(session, "recorder-stopped");
    }
    if (this.#sessionless) this.endSession(this.#sessionless, "recorder-stopped");
    // Nothing succeeded: the cassette keeps what happened, with no era.
    if (this.#writer.deferred) this.#writer.setHeader(this.#header(undefined));
    this.flush();
    await this.#writer.close();
  }

  #header(era: Era | undefined, protocolVersion?: string): CassetteHeader {
    const url = this.upstream.url;
    // The path is scrubbed with the query, as each request's path is: a
    // secret may be a path segment (and slicing a scrubbed path was wrong).
    const pathAndQuery = this.headerRedactor?.url
      ? this.headerRedactor.url(url.pathname + url.search)
      : url.pathname + this.upstream.hide(url.search);
    return makeHeader({
      transport: this.#transport,
      ...(era ? { era } : {}),
      ...(protocolVersion ? { protocolVersion } : {}),
      server: { url: url.origin + pathAndQuery },
      ...(this.settings.redactor ? { redaction: this.settings.redactor.info() } : {}),
    });
  }

  /**
   * Records one message. One that cannot be redacted or serialised is marked
   * in its place, as on stdio: it was forwarded, and its exchange goes on.
   */
  message(
    msg: Json,
    dir: Direction,
    x: number,
    session?: LiveSession,
    sse?: SseFields,
    text?: string,
  ): void {
    const place = { t: this.t(), ...(session ? { session: session.name } : {}), x, dir };
    try {
      const redactor = this.settings.redactor;
      // A frame whose text shows nothing the rules could change is kept as it
      // came, without walking (and copying) the message to find that out.
      const redacted = !redactor || (text !== undefined && redactor.keepsLine(text, dir))
        ? msg
        : redactor.message(msg, dir);
      const entry: MessageEntry = {
        type: "message",
        ...place,
        msg: redacted,
        ...(sse ? { sse } : {}),
      };
      // The frame's own text is kept (only redacted values written anew): see cassette/frame_text.ts.
      if (text !== undefined) keepFrameText(entry, ownFrameText(text, msg, redacted));
      this.append(entry);
    } catch (error) {
      const what = `a frame that could not be recorded (${(error as Error).message})`;
      this.settings.log?.(notRecordedNote(what, dir));
      this.append({ type: "raw", ...place, text: notRecordedText(what), ...(sse ? { sse } : {}) });
    }
  }

  /** Decides the era from the first request answered with a result. */
  observeAnswer(message: JsonObject, requests: Map<string, JsonObject>): void {
    if (this.#era || !("result" in message) || !("id" in message)) return;
    const key = JSON.stringify(message.id);
    const request = requests.get(key) ?? this.#allRequests.get(key);
    const decided = request && eraOf(message, request);
    if (!decided) return;
    this.#era = decided.era;
    this.#allRequests.clear();
    this.#writer.setHeader(this.#header(decided.era, decided.protocolVersion));
  }

  /** Keeps a request for {@linkcode observeAnswer} while the era is undecided. */
  rememberRequest(key: string, message: JsonObject): void {
    if (this.#era === undefined) this.#allRequests.set(key, message);
  }

  endpoint(session: LiveSession | undefined, data: string): void {
    this.#transport = "sse";
    const endpoint = new URL(data, this.upstream.url);
    if (session) {
      this.#sseEndpoints.set(endpoint.pathname + endpoint.search, session);
      this.startSession(session);
    }
  }

  rewrite(bytes: Uint8Array): Uint8Array {
    return this.#transport === "sse"
      ? this.upstream.rewriteEndpointBytes(bytes, this.proxyOrigin)
      : bytes;
  }

  /** Which session a request belongs to; a new one for an initialize without a session id. */
  sessionFor(
    request: RequestView,
    url: ClientRequest["url"],
    messages: JsonObject[],
  ): LiveSession | undefined {
    const sessionId = request.headers.get("mcp-session-id");
    if (sessionId) {
      let session = this.#sessions.get(sessionId);
      if (!session) {
        // A session the recorder never saw start (the client outlived a restart): keep it apart.
        session = this.newSession("http");
        this.startSession(session, sessionId);
      }
      return session;
    }
    const endpoint = this.#sseEndpoints.get(url.pathname + url.search);
    if (endpoint) return endpoint;
    if (messages.some((message) => message.method === "initialize" && "id" in message)) {
      if (this.#sessionless) this.endSession(this.#sessionless, "superseded");
      this.#sessionless = this.newSession("http");
      return this.#sessionless;
    }
    return this.#sessionless;
  }

  /** Handles one client request. */
  async handle(request: Request, deadline?: BodyDeadline): Promise<Response> {
    // A POST of any other type is what a web page can send with no CORS
    // preflight: refused, as the replay does, before anything goes up.
    if (
      request.method === "POST" &&
      mediaType(request.headers.get("content-type")) !== "application/json"
    ) {
      return errorReply({
        status: 415,
        code: ErrorCode.InvalidRequest,
        message: "Unsupported Media Type: Content-Type must be application/json",
      });
    }
    const read = await readClientBody(request, this.settings.maxBodyBytes, deadline);
    if (read === "too-late") return requestTimeout();
    if (read === "too-large") {
      return errorReply({
        status: 413,
        code: ErrorCode.InvalidRequest,
        message: "Request body too large",
      });
    }
    if (Array.isArray(read.parsed) && read.parsed.length > MAX_BATCH_SIZE) {
      this.settings.log?.(
        `refused a batch of ${read.parsed.length} messages (at most ${MAX_BATCH_SIZE})`,
      );
      const refusal = batchTooLarge(read.parsed.length).error!;
      return errorReply({ status: 400, code: refusal.code, message: refusal.message });
    }
    const client = this.open(request, new URL(request.url), read);
    // Forwarded first, recorded beside it: the request's lines are written
    // while the upstream works on it, the answer's before it goes back.
    const answering = forwardRequest(this, client, request);
    this.recordRequest(client);
    try {
      return await answering;
    } finally {
      this.flush();
    }
  }

  /** Numbers a request read (its body whole) and places it in its session. */
  open(request: RequestView, url: ClientRequest["url"], read: ClientBody): ClientRequest {
    const x = ++this.#exchange;
    const messages = read.parsed !== undefined && isJsonRpc(read.parsed)
      ? messagesOf(read.parsed)
      : [];
    let session = this.sessionFor(request, url, messages);
    const isGetStream = request.method === "GET" &&
      (request.headers.get("accept") ?? "").includes("text/event-stream");
    if (isGetStream && !session && !request.headers.get("mcp-session-id")) {
      // An HTTP+SSE client opens its session with this GET.
      session = this.newSession("sse");
    }
    if (
      session && session.sessionId === undefined && !session.started &&
      !messages.some((m) => m.method === "initialize")
    ) {
      this.startSession(session);
    }
    return { request, url, x, session, messages, requests: new Map(), ...read };
  }

  /** Records the request as it is forwarded; its lines are written before this turn ends. */
  recordRequest(client: ClientRequest): void {
    this.#recordRequest(client);
    this.#flushSoon();
  }

  /** True while the upstream speaks Streamable HTTP (not HTTP+SSE, whose endpoints are rewritten). */
  get streamable(): boolean {
    return this.#transport === "http";
  }

  /** The request's envelope and its messages (or its text), as it is forwarded. */
  #recordRequest(client: ClientRequest): void {
    const { request, url, x, session, parsed, text } = client;
    const pathAndQuery = url.pathname + url.search;
    const redactor = this.headerRedactor;
    const scrubbed = scrubHeaders(request.headers, redactor);
    const where = session ? { session: session.name } : {};
    this.append({
      type: "http-request",
      t: this.t(),
      ...where,
      x,
      method: request.method,
      path: redactor?.url ? redactor.url(pathAndQuery) : pathAndQuery,
      headers: scrubbed.headers,
      ...(scrubbed.credentials.length > 0 ? { credentials: scrubbed.credentials } : {}),
    });
    for (const message of client.messages) {
      if (typeof message.method === "string" && "id" in message) {
        const key = JSON.stringify(message.id);
        client.requests.set(key, message);
        this.rememberRequest(key, message);
      }
    }
    if (parsed !== undefined && isJsonRpc(parsed)) {
      this.message(parsed, "c2s", x, session, undefined, text);
    } else if (text !== "") {
      this.append({ type: "raw", t: this.t(), ...where, x, dir: "c2s", text });
    }
  }
}
