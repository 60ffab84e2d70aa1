/**
 * The Streamable HTTP (and HTTP+SSE) reverse-proxy recorder. Every request
 * is forwarded to the upstream server and every response streamed back as
 * it arrives (an SSE event reaches the client as soon as the upstream sends
 * it); each exchange is written to the cassette as it goes: the request and
 * response envelopes (credentials named, never written), the messages, and
 * every SSE event with its id, type and retry, on its stream.
 *
 * The cassette header is deferred until the first exchange that succeeds
 * decides the era: `initialize` answered → legacy, `server/discover`
 * answered → modern. A probe answered with an error decides nothing.
 *
 * @module
 */
import { untilInterrupted } from "../runtime/signals.ts";
import { makeHeader } from "../cassette/format.ts";
import type {
  CassetteHeader,
  Direction,
  Entry,
  Era,
  MessageEntry,
  SseFields,
} from "../cassette/format.ts";
import { keepFrameText } from "../cassette/frame_text.ts";
import { patchJsonText } from "../json_text.ts";
import { CassetteWriter } from "../cassette/writer.ts";
import { ErrorCode } from "../jsonrpc.ts";
import type { Json, JsonObject } from "../jsonrpc.ts";
import { runtime } from "../runtime/mod.ts";
import type { SseEvent } from "../framing/sse.ts";
import { checkHostAndOrigin, exposureWarning, originFor, parseListen } from "../http/guard.ts";
import { forwardableHeaders, mediaType, scrubHeaders } from "../http/headers.ts";
import type { HeaderRedactor } from "../http/headers.ts";
import { jsonRpcHttpError, readBodyCapped } from "../http/body.ts";
import { SseSplitter } from "../http/sse_splitter.ts";
import { clockNow, elapsed, notRecordedNote, notRecordedText } from "./frames.ts";
import type { FrameRedactor } from "./stdio.ts";

/** Default cap on a request body, in bytes. */
export const DEFAULT_MAX_BODY_BYTES = 4 * 1024 * 1024;

/** Options of {@linkcode recordHttp}. */
export interface HttpRecordOptions {
  /** The upstream server's URL. */
  url: string;
  output: string;
  /** `HOST:PORT` to listen on (default 127.0.0.1 and a free port). */
  listen?: string;
  redactor?: FrameRedactor;
  force?: boolean;
  /** Called with the URL to give the client, once listening. */
  onListening?: (url: string) => void;
  log?: (line: string) => void;
  /** Resolves when recording should stop (default: SIGINT/SIGTERM). */
  until?: Promise<void>;
  /** Largest request body accepted, in bytes (default 4 MiB). */
  maxBodyBytes?: number;
  /** Idle connections are closed after this many milliseconds (default 30000). */
  idleTimeoutMs?: number;
}

const PROTOCOL_VERSION_META = "io.modelcontextprotocol/protocolVersion";

interface LiveSession {
  name: string;
  sessionId?: string;
  started: boolean;
  ended: boolean;
}

function isObject(value: unknown): value is JsonObject {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

function isJsonRpc(value: unknown): boolean {
  if (Array.isArray(value)) return value.length > 0 && value.every(isJsonRpc);
  return isObject(value) && value.jsonrpc === "2.0";
}

function messagesOf(value: Json): JsonObject[] {
  return (Array.isArray(value) ? value : [value]).filter(isObject);
}

/** The recorder's state for one run. */
class HttpRecorder {
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
  proxyOrigin = "";

  constructor(writer: CassetteWriter, readonly upstream: URL, readonly options: HttpRecordOptions) {
    this.#writer = writer;
  }

  #redactor(): HeaderRedactor | undefined {
    return this.options.redactor as unknown as HeaderRedactor | undefined;
  }

  #append(entry: Entry) {
    this.#writer.append(entry);
  }

  #t() {
    return elapsed(this.#start);
  }

  #newSession(prefix: string): LiveSession {
    const session: LiveSession = {
      name: `${prefix}-${++this.#sessionCount}`,
      started: false,
      ended: false,
    };
    return session;
  }

  #startSession(session: LiveSession, sessionId?: string) {
    if (session.started) return;
    session.started = true;
    if (sessionId) {
      session.sessionId = sessionId;
      this.#sessions.set(sessionId, session);
    }
    this.#append({
      type: "session",
      t: this.#t(),
      session: session.name,
      event: "start",
      ...(sessionId ? { sessionId } : {}),
    });
  }

  #endSession(session: LiveSession, reason: string) {
    if (session.ended || !session.started) return;
    session.ended = true;
    this.#append({ type: "session", t: this.#t(), session: session.name, event: "end", reason });
  }

  /** Ends every open session and closes the cassette. */
  async finish() {
    for (const session of new Set([...this.#sessions.values(), ...this.#sseEndpoints.values()])) {
      this.#endSession(session, "recorder-stopped");
    }
    if (this.#sessionless) this.#endSession(this.#sessionless, "recorder-stopped");
    // Nothing succeeded: the cassette keeps what happened, with no era.
    if (this.#writer.deferred) this.#writer.setHeader(this.fallbackHeader());
    await this.#writer.close();
  }

  #decideEra(era: Era, protocolVersion: string | undefined) {
    if (this.#era) return;
    this.#era = era;
    this.#writer.setHeader(this.#header(era, protocolVersion));
  }

  #header(era: Era | undefined, protocolVersion?: string): CassetteHeader {
    const url = new URL(this.upstream);
    url.username = "";
    url.password = "";
    const redactor = this.#redactor();
    const pathAndQuery = redactor?.url
      ? redactor.url(url.pathname + url.search)
      : url.pathname + url.search;
    return makeHeader({
      transport: this.#transport,
      ...(era ? { era } : {}),
      ...(protocolVersion ? { protocolVersion } : {}),
      server: { url: url.origin + pathAndQuery },
      ...(this.options.redactor ? { redaction: this.options.redactor.info() } : {}),
    });
  }

  /** The header used when nothing ever succeeded. */
  fallbackHeader(): CassetteHeader {
    return this.#header(undefined);
  }

  /**
   * Records one message. One that cannot be redacted or serialised is marked
   * in its place, as on stdio: it was forwarded, and its exchange goes on.
   */
  #message(
    msg: Json,
    dir: Direction,
    x: number,
    session: LiveSession | undefined,
    sse?: SseFields,
    text?: string,
  ) {
    const place = { t: this.#t(), ...(session ? { session: session.name } : {}), x, dir };
    try {
      const redacted = this.options.redactor ? this.options.redactor.message(msg, dir) : msg;
      const entry: MessageEntry = {
        type: "message",
        ...place,
        msg: redacted,
        ...(sse ? { sse } : {}),
      };
      if (text !== undefined) keepFrameText(entry, ownText(text, msg, redacted));
      this.#append(entry);
    } catch (error) {
      const what = `a frame that could not be recorded (${(error as Error).message})`;
      this.options.log?.(notRecordedNote(what, dir));
      this.#append({ type: "raw", ...place, text: notRecordedText(what), ...(sse ? { sse } : {}) });
    }
  }

  /** Which session a request belongs to; a new one for an initialize without a session id. */
  #sessionFor(request: Request, url: URL, messages: JsonObject[]): LiveSession | undefined {
    const sessionId = request.headers.get("mcp-session-id");
    if (sessionId) {
      let session = this.#sessions.get(sessionId);
      if (!session) {
        // A session the recorder never saw start (the client outlived a restart): keep it apart.
        session = this.#newSession("http");
        this.#startSession(session, sessionId);
      }
      return session;
    }
    const endpoint = this.#sseEndpoints.get(url.pathname + url.search);
    if (endpoint) return endpoint;
    if (messages.some((message) => message.method === "initialize" && "id" in message)) {
      if (this.#sessionless) this.#endSession(this.#sessionless, "superseded");
      this.#sessionless = this.#newSession("http");
      return this.#sessionless;
    }
    return this.#sessionless;
  }

  /** Handles one client request. */
  async handle(request: Request): Promise<Response> {
    const url = new URL(request.url);
    const x = ++this.#exchange;
    const pathAndQuery = url.pathname + url.search;
    const redactor = this.#redactor();
    const hasBody = request.method !== "GET" && request.method !== "HEAD";
    let body: Uint8Array | undefined;
    if (hasBody) {
      const read = await readBodyCapped(
        request,
        this.options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
      );
      if (read.tooLarge) {
        return jsonRpcHttpError(413, null, ErrorCode.InvalidRequest, "Request body too large");
      }
      body = read.bytes;
    }
    const text = body ? new TextDecoder().decode(body) : "";
    let parsed: Json | undefined;
    if (
      text.trim() !== "" && mediaType(request.headers.get("content-type")) === "application/json"
    ) {
      try {
        parsed = JSON.parse(text) as Json;
      } catch {
        parsed = undefined;
      }
    }
    const messages = parsed !== undefined && isJsonRpc(parsed) ? messagesOf(parsed) : [];
    const isGetStream = request.method === "GET" &&
      (request.headers.get("accept") ?? "").includes("text/event-stream");
    let session = this.#sessionFor(request, url, messages);
    if (isGetStream && !session && !request.headers.get("mcp-session-id")) {
      // An HTTP+SSE client opens its session with this GET.
      session = this.#newSession("sse");
    }
    if (
      session && session.sessionId === undefined && !session.started &&
      !messages.some((m) => m.method === "initialize")
    ) {
      this.#startSession(session);
    }
    const scrubbed = scrubHeaders(request.headers, redactor);
    this.#append({
      type: "http-request",
      t: this.#t(),
      ...(session ? { session: session.name } : {}),
      x,
      method: request.method,
      path: redactor?.url ? redactor.url(pathAndQuery) : pathAndQuery,
      headers: scrubbed.headers,
      ...(scrubbed.credentials.length > 0 ? { credentials: scrubbed.credentials } : {}),
    });
    const requestMethods = new Map<string, JsonObject>();
    for (const message of messages) {
      if (typeof message.method === "string" && "id" in message) {
        requestMethods.set(JSON.stringify(message.id), message);
        this.#allRequests.set(JSON.stringify(message.id), message);
      }
    }
    if (parsed !== undefined && isJsonRpc(parsed)) {
      this.#message(parsed, "c2s", x, session, undefined, text);
    } else if (text !== "") {
      this.#append({
        type: "raw",
        t: this.#t(),
        ...(session ? { session: session.name } : {}),
        x,
        dir: "c2s",
        text,
      });
    }

    const target = new URL(pathAndQuery, this.upstream);
    let upstream: Response;
    try {
      upstream = await fetch(target, {
        method: request.method,
        headers: forwardableHeaders(request.headers),
        body: body as Uint8Array<ArrayBuffer> | undefined,
        redirect: "manual",
        signal: request.signal,
      });
    } catch (error) {
      if (request.signal.aborted) {
        // The client left while the upstream had not answered yet (a hung
        // server, a slow one): that is what happened, not an upstream error.
        this.#append({
          type: "http-end",
          t: this.#t(),
          ...(session ? { session: session.name } : {}),
          x,
          reason: "client-closed",
        });
        return new Response(null, { status: 499 });
      }
      const reason = (error as Error).message || String(error);
      this.#append({
        type: "http-end",
        t: this.#t(),
        ...(session ? { session: session.name } : {}),
        x,
        reason: "upstream-error",
        error: reason,
      });
      this.options.log?.(`upstream ${this.upstream.origin} unreachable: ${reason}`);
      const first = messages.find((message) =>
        "id" in message && typeof message.method === "string"
      );
      return jsonRpcHttpError(
        502,
        (first?.id ?? null) as Json,
        ErrorCode.InternalError,
        `Bad gateway: the upstream server ${this.upstream.origin} is unreachable (${reason})`,
      );
    }

    const sessionId = upstream.headers.get("mcp-session-id");
    if (session && !session.started) this.#startSession(session, sessionId ?? undefined);
    if (request.method === "DELETE" && session && upstream.ok) this.#endSession(session, "deleted");
    if (upstream.status === 404 && session?.sessionId) this.#endSession(session, "unknown-session");

    const headers = forwardableHeaders(upstream.headers, ["content-encoding"]);
    this.#rewriteAuthHeaders(headers);
    const contentType = mediaType(upstream.headers.get("content-type"));
    const responseHeaders = scrubHeaders(upstream.headers, redactor).headers;
    const base = { t: 0, ...(session ? { session: session.name } : {}), x };
    const end = (reason: "complete" | "client-closed" | "upstream-closed", error?: string) =>
      this.#append({
        type: "http-end",
        ...base,
        t: this.#t(),
        reason,
        ...(error ? { error } : {}),
      });

    if (contentType === "text/event-stream" && upstream.body) {
      this.#append({
        type: "http-response",
        ...base,
        t: this.#t(),
        status: upstream.status,
        headers: responseHeaders,
        body: "sse",
      });
      const stream: "post" | "get" = request.method === "GET" ? "get" : "post";
      return new Response(this.#relaySse(upstream.body, stream, x, session, requestMethods, end), {
        status: upstream.status,
        statusText: upstream.statusText,
        headers,
      });
    }

    let bytes: Uint8Array;
    try {
      bytes = new Uint8Array(await upstream.arrayBuffer());
    } catch (error) {
      // The body broke off: the client left, or the upstream went away mid-body.
      this.#append({
        type: "http-response",
        ...base,
        t: this.#t(),
        status: upstream.status,
        headers: responseHeaders,
        body: "none",
      });
      if (request.signal.aborted) end("client-closed");
      else end("upstream-closed", (error as Error).message);
      return new Response(null, { status: request.signal.aborted ? 499 : 502 });
    }
    let responseText = new TextDecoder().decode(bytes);
    let outBytes: Uint8Array = bytes;
    let json: Json | undefined;
    if (
      responseText.trim() !== "" &&
      (contentType === "application/json" || contentType.endsWith("+json"))
    ) {
      try {
        json = JSON.parse(responseText) as Json;
      } catch {
        json = undefined;
      }
    }
    if (json !== undefined && !isJsonRpc(json) && this.#rewriteMetadata(json, url.pathname)) {
      responseText = JSON.stringify(json);
      outBytes = new TextEncoder().encode(responseText);
    }
    const kind = bytes.length === 0
      ? "none"
      : json !== undefined && isJsonRpc(json)
      ? "json"
      : "text";
    this.#append({
      type: "http-response",
      ...base,
      t: this.#t(),
      status: upstream.status,
      headers: responseHeaders,
      body: kind,
      ...(kind === "text"
        ? {
          text: this.options.redactor
            ? this.options.redactor.text(responseText, "s2c")
            : responseText,
        }
        : {}),
    });
    if (kind === "json") {
      this.#message(json!, "s2c", x, session, undefined, responseText);
      for (const message of messagesOf(json!)) this.#observeAnswer(message, requestMethods);
    }
    end("complete");
    return new Response(outBytes.length === 0 ? null : outBytes, {
      status: upstream.status,
      statusText: upstream.statusText,
      headers,
    });
  }

  /** Decides the era from the first request answered with a result. */
  #observeAnswer(message: JsonObject, requests: Map<string, JsonObject>) {
    if (this.#era || !("result" in message) || !("id" in message)) return;
    const request = requests.get(JSON.stringify(message.id));
    if (!request) return;
    const result = isObject(message.result) ? message.result : {};
    const params = isObject(request.params) ? request.params : {};
    const meta = isObject(params._meta) ? params._meta : {};
    const modernVersion = typeof meta[PROTOCOL_VERSION_META] === "string"
      ? meta[PROTOCOL_VERSION_META] as string
      : undefined;
    if (request.method === "initialize") {
      this.#decideEra(
        "legacy",
        typeof result.protocolVersion === "string" ? result.protocolVersion : undefined,
      );
    } else if (request.method === "server/discover" || modernVersion) {
      this.#decideEra("modern", modernVersion);
    } else {
      this.#decideEra("legacy", undefined);
    }
  }

  /** Streams SSE through unchanged, recording each event before its bytes go on. */
  #relaySse(
    body: ReadableStream<Uint8Array>,
    stream: "post" | "get",
    x: number,
    session: LiveSession | undefined,
    requests: Map<string, JsonObject>,
    end: (reason: "complete" | "client-closed" | "upstream-closed", error?: string) => void,
  ): ReadableStream<Uint8Array> {
    const reader = body.getReader();
    const splitter = new SseSplitter();
    let ended = false;
    const finish = (reason: "complete" | "client-closed" | "upstream-closed", error?: string) => {
      if (ended) return;
      ended = true;
      end(reason, error);
    };
    const recordEvents = (events: SseEvent[]) => {
      for (const event of events) this.#recordEvent(event, stream, x, session, requests);
    };
    return new ReadableStream<Uint8Array>({
      pull: async (controller) => {
        try {
          const { done, value } = await reader.read();
          if (done) {
            recordEvents(splitter.end());
            finish("complete");
            controller.close();
            return;
          }
          recordEvents(splitter.push(value));
          controller.enqueue(this.#rewriteEndpointBytes(value));
        } catch (error) {
          recordEvents(splitter.end());
          finish("upstream-closed", (error as Error).message);
          controller.close();
        }
      },
      cancel: async () => {
        finish("client-closed");
        await reader.cancel().catch(() => {});
      },
    }, { highWaterMark: 0 });
  }

  #recordEvent(
    event: SseEvent,
    stream: "post" | "get",
    x: number,
    session: LiveSession | undefined,
    requests: Map<string, JsonObject>,
  ) {
    const sse: SseFields = { stream };
    if (event.id !== undefined) sse.id = event.id;
    if (event.event !== undefined) sse.event = event.event;
    if (event.retry !== undefined) sse.retry = event.retry;
    if (event.event === "endpoint") {
      this.#transport = "sse";
      const endpoint = new URL(event.data, this.upstream);
      if (session) {
        this.#sseEndpoints.set(endpoint.pathname + endpoint.search, session);
        this.#startSession(session);
      }
      this.#append({
        type: "sse-event",
        t: this.#t(),
        ...(session ? { session: session.name } : {}),
        x,
        sse,
        data: event.data,
      });
      return;
    }
    let parsed: Json | undefined;
    if (event.data.trim() !== "") {
      try {
        parsed = JSON.parse(event.data) as Json;
      } catch {
        parsed = undefined;
      }
    }
    if (parsed !== undefined && isJsonRpc(parsed)) {
      this.#message(parsed, "s2c", x, session, sse, event.data);
      for (const message of messagesOf(parsed)) this.#observeAnswer(message, requests);
      for (const message of messagesOf(parsed)) this.#observeAnswer(message, this.#allRequests);
    } else {
      this.#append({
        type: "sse-event",
        t: this.#t(),
        ...(session ? { session: session.name } : {}),
        x,
        sse,
        data: event.data,
      });
    }
  }

  /** Every request seen, for era detection when answers arrive on another stream (HTTP+SSE, resumption). */
  #allRequests = new Map<string, JsonObject>();

  /** An `endpoint` event naming the upstream's origin must name ours, or the client would bypass us. */
  #rewriteEndpointBytes(bytes: Uint8Array): Uint8Array {
    if (this.#transport !== "sse") return bytes;
    const text = new TextDecoder().decode(bytes);
    if (!text.includes("event: endpoint") && !text.includes("event:endpoint")) return bytes;
    return new TextEncoder().encode(text.split(this.upstream.origin).join(this.proxyOrigin));
  }

  /** `WWW-Authenticate: Bearer resource_metadata="<upstream>/…"` must point at the proxy. */
  #rewriteAuthHeaders(headers: Headers) {
    const challenge = headers.get("www-authenticate");
    if (challenge && challenge.includes(this.upstream.origin)) {
      headers.set("www-authenticate", challenge.split(this.upstream.origin).join(this.proxyOrigin));
    }
    const location = headers.get("location");
    if (location && location.startsWith(this.upstream.origin)) {
      headers.set("location", this.proxyOrigin + location.slice(this.upstream.origin.length));
    }
  }

  /**
   * Protected-resource metadata names the resource the client connects to:
   * a client that checks it against its URL must see the proxy's origin.
   */
  #rewriteMetadata(json: Json, path: string): boolean {
    if (!isObject(json) || !path.startsWith("/.well-known/oauth-protected-resource")) return false;
    const resource = json.resource;
    if (typeof resource !== "string" || !resource.startsWith(this.upstream.origin)) return false;
    json.resource = this.proxyOrigin + resource.slice(this.upstream.origin.length);
    return true;
  }
}

/**
 * Records over HTTP until SIGINT/SIGTERM (or `until`); resolves with the exit code.
 *
 * @example
 * ```ts
 * const code = await recordHttp({ url: "https://example.com/mcp", output: "s.cassette.jsonl" });
 * ```
 */
export async function recordHttp(options: HttpRecordOptions): Promise<number> {
  const upstream = new URL(options.url);
  const bound = parseListen(options.listen);
  const warning = exposureWarning(bound.hostname);
  if (warning) options.log?.(`mcp-cassette: ${warning}`);
  const writer = await CassetteWriter.open(options.output, { followSymlink: options.force });
  const active = new HttpRecorder(writer, upstream, options);
  const server = await runtime.serve(
    {
      hostname: bound.hostname,
      port: bound.port,
      maxHeaderBytes: 16 * 1024,
      idleTimeoutMs: options.idleTimeoutMs ?? 30_000,
      exposed: warning !== undefined,
    },
    async (request) => {
      const refused = checkHostAndOrigin(request, { hostname: bound.hostname, port: server.port });
      if (refused) {
        return jsonRpcHttpError(refused.status, null, ErrorCode.InvalidRequest, refused.message);
      }
      return await active.handle(request);
    },
  );
  active.proxyOrigin = originFor(bound.hostname, server.port);
  options.onListening?.(active.proxyOrigin + upstream.pathname + upstream.search);
  const stop = options.until ?? untilInterrupted();
  await stop;
  await server.close();
  await active.finish();
  return 0;
}

/** A frame's own text, with only what redaction changed (`redacted` against `msg`) written anew. */
function ownText(text: string, msg: Json, redacted: Json): string {
  const trimmed = text.trim();
  if (redacted === msg || JSON.stringify(redacted) === JSON.stringify(msg)) return trimmed;
  return patchJsonText(trimmed, redacted);
}
