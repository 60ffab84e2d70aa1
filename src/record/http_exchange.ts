/**
 * One exchange of the HTTP recorder: the client's body read (capped), the
 * request forwarded to the upstream, and its answer recorded and relayed,
 * as one JSON body or as an SSE stream (./http_sse.ts).
 *
 * @module
 */
import { ErrorCode } from "../jsonrpc/messages.ts";
import type { Json, JsonObject } from "../jsonrpc/messages.ts";
import { forwardableHeaders, mediaType, scrubHeaders } from "../http/headers.ts";
import type { HeaderRedactor, HeaderSource } from "../http/headers.ts";
import { errorReply, readBodyCapped } from "../http/body.ts";
import type { BodyDeadline } from "../runtime/mod.ts";
import type { Redactor } from "../redact/mod.ts";
import { isJsonRpc, messagesOf, parseJson } from "./http_messages.ts";
import { relaySse } from "./http_sse.ts";
import type { EndReason, LiveSession, SseHost } from "./http_sse.ts";
import type { Upstream } from "./http_upstream.ts";

/** A client's request body as read. */
export interface ClientBody {
  body?: Uint8Array;
  text: string;
  /** The body as JSON, when it is JSON the recorder could parse. */
  parsed?: Json;
}

/** What of a client's request the recording reads (a Request, or a head read off the wire). */
export interface RequestView {
  readonly method: string;
  readonly headers: HeaderSource;
}

/** A client's request, read and placed in its session. */
export interface ClientRequest extends ClientBody {
  request: RequestView;
  url: { readonly pathname: string; readonly search: string };
  x: number;
  session?: LiveSession;
  messages: JsonObject[];
  /** The requests among its messages, by id. */
  requests: Map<string, JsonObject>;
}

/** What of the recorder an exchange uses. */
export interface ExchangeHost extends SseHost {
  readonly upstream: Upstream;
  readonly proxyOrigin: string;
  readonly headerRedactor?: HeaderRedactor;
  readonly settings: { redactor?: Redactor; log?: (line: string) => void; ownToken?: boolean };
  startSession(session: LiveSession, sessionId?: string): void;
  endSession(session: LiveSession, reason: string): void;
}

/**
 * Reads the client's body (capped at `maxBytes`, within `deadline` when the
 * server left it to the handler) and parses it when it says it is JSON.
 */
export async function readClientBody(
  request: Request,
  maxBytes: number,
  deadline?: BodyDeadline,
): Promise<ClientBody | "too-large" | "too-late"> {
  if (request.method === "GET" || request.method === "HEAD") return { text: "" };
  const reading = readBodyCapped(request, maxBytes);
  const read = deadline ? await deadline.within(reading) : await reading;
  if (read === undefined) return "too-late";
  if (read.tooLarge) return "too-large";
  const text = new TextDecoder().decode(read.bytes);
  const isJson = mediaType(request.headers.get("content-type")) === "application/json";
  const parsed = isJson ? parseJson(text) : undefined;
  return { body: read.bytes, text, ...(parsed === undefined ? {} : { parsed }) };
}

/** Forwards the request and relays the answer, recording both. */
export async function forwardRequest(
  host: ExchangeHost,
  client: ClientRequest,
  request: Request,
): Promise<Response> {
  const { url, x, session } = client;
  const where = session ? { session: session.name } : {};
  let upstream: Response;
  try {
    upstream = await fetch(host.upstream.target(url.pathname + url.search), {
      method: request.method,
      // The recorder's own bearer token is for it alone, never the upstream's.
      headers: forwardableHeaders(request.headers, host.settings.ownToken ? ["authorization"] : []),
      body: client.body as Uint8Array<ArrayBuffer> | undefined,
      redirect: "manual",
      signal: request.signal,
    });
  } catch (error) {
    if (request.signal.aborted) {
      // The client left while the upstream had not answered yet (a hung
      // server, a slow one): that is what happened, not an upstream error.
      host.append({ type: "http-end", t: host.t(), ...where, x, reason: "client-closed" });
      return new Response(null, { status: 499 });
    }
    // Deno's fetch error quotes the whole URL, query and all.
    const reason = host.upstream.hide((error as Error).message || String(error));
    host.append({
      type: "http-end",
      t: host.t(),
      ...where,
      x,
      reason: "upstream-error",
      error: reason,
    });
    host.settings.log?.(`upstream ${host.upstream.origin} unreachable: ${reason}`);
    const first = client.messages.find((message) =>
      "id" in message && typeof message.method === "string"
    );
    return errorReply({
      status: 502,
      id: (first?.id ?? null) as Json,
      code: ErrorCode.InternalError,
      message:
        `Bad gateway: the upstream server ${host.upstream.origin} is unreachable (${reason})`,
    });
  }
  return await relayResponse(host, client, upstream, request.signal);
}

/** How an answer is recorded once its head is in. */
export interface AnswerRecording {
  /** The `http-response` line, with what the body is. */
  response(body: "sse" | "none" | "json" | "text", text?: string): void;
  /** The `http-end` line. */
  end(reason: EndReason, error?: string): void;
}

/** What an answer's head tells the sessions, and how the rest of it is recorded. */
export function recordAnswerHead(
  host: ExchangeHost,
  client: ClientRequest,
  status: number,
  headers: HeaderSource,
): AnswerRecording {
  const { request, x, session } = client;
  const sessionId = headers.get("mcp-session-id");
  if (session && !session.started) host.startSession(session, sessionId ?? undefined);
  const ok = status >= 200 && status < 300;
  if (request.method === "DELETE" && session && ok) host.endSession(session, "deleted");
  if (status === 404 && session?.sessionId) host.endSession(session, "unknown-session");
  const base = { ...(session ? { session: session.name } : {}), x };
  return {
    response: (body, text) =>
      host.append({
        type: "http-response",
        ...base,
        t: host.t(),
        status,
        headers: scrubHeaders(headers, host.headerRedactor).headers,
        body,
        ...(text === undefined ? {} : { text }),
      }),
    end: (reason, error) =>
      host.append({ type: "http-end", ...base, t: host.t(), reason, ...(error ? { error } : {}) }),
  };
}

/**
 * Records a whole (not streamed) answer body; returns the bytes to send on
 * (protected-resource metadata names the proxy instead of the upstream).
 */
export function recordWholeAnswer(
  host: ExchangeHost,
  client: ClientRequest,
  recording: AnswerRecording,
  contentType: string,
  bytes: Uint8Array,
): Uint8Array {
  const { url, x, session } = client;
  let responseText = new TextDecoder().decode(bytes);
  let outBytes = bytes;
  const isJson = contentType === "application/json" || contentType.endsWith("+json");
  const json = isJson ? parseJson(responseText) : undefined;
  const rpc = json !== undefined && isJsonRpc(json);
  if (
    json !== undefined && !rpc &&
    host.upstream.rewriteMetadata(json, url.pathname, host.proxyOrigin)
  ) {
    responseText = JSON.stringify(json);
    outBytes = new TextEncoder().encode(responseText);
  }
  const redactor = host.settings.redactor;
  if (bytes.length === 0) recording.response("none");
  else if (rpc) recording.response("json");
  else recording.response("text", redactor ? redactor.text(responseText, "s2c") : responseText);
  if (bytes.length > 0 && rpc) {
    host.message(json!, "s2c", x, session, undefined, responseText);
    for (const message of messagesOf(json!)) host.observeAnswer(message, client.requests);
  }
  recording.end("complete");
  return outBytes;
}

/** Records the upstream's answer and hands it on. */
async function relayResponse(
  host: ExchangeHost,
  client: ClientRequest,
  upstream: Response,
  signal: AbortSignal,
): Promise<Response> {
  const { request, x, session } = client;
  const recording = recordAnswerHead(host, client, upstream.status, upstream.headers);
  const headers = forwardableHeaders(upstream.headers, ["content-encoding"]);
  host.upstream.rewriteAuthHeaders(headers, host.proxyOrigin);
  const contentType = mediaType(upstream.headers.get("content-type"));
  const init = { status: upstream.status, statusText: upstream.statusText, headers };

  if (contentType === "text/event-stream" && upstream.body) {
    recording.response("sse");
    const stream = request.method === "GET" ? "get" : "post";
    return new Response(
      relaySse(host, upstream.body, {
        stream,
        x,
        session,
        requests: client.requests,
        end: recording.end,
      }),
      init,
    );
  }
  let bytes: Uint8Array;
  try {
    bytes = new Uint8Array(await upstream.arrayBuffer());
  } catch (error) {
    // The body broke off: the client left, or the upstream went away mid-body.
    recording.response("none");
    if (signal.aborted) recording.end("client-closed");
    else recording.end("upstream-closed", (error as Error).message);
    return new Response(null, { status: signal.aborted ? 499 : 502 });
  }
  const out = recordWholeAnswer(host, client, recording, contentType, bytes);
  return new Response(out.length === 0 ? null : out as Uint8Array<ArrayBuffer>, init);
}
