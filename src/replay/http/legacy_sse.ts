/**
 * The old HTTP+SSE transport (2024-11-05) on replay, for cassettes recorded
 * on it (header `transport: "sse"`). A GET opens a session: its SSE stream
 * first carries an `endpoint` event naming the POST URL (a path on the
 * replay's own origin with a `sessionId` query parameter, as the SDK server
 * sends it), then every server message as `event: message`. Each POST is
 * answered 202 at once; what the recording did in reply goes out on the
 * session's stream. Closing the stream ends the session.
 *
 * @module
 */
import { keepingIdText, lostIdText, memberTexts } from "../exact_id.ts";
import { randomId } from "../../http/random_id.ts";
import type { Cassette } from "../../cassette/reader.ts";
import type { SseFields } from "../../cassette/format.ts";
import { ErrorCode } from "../../jsonrpc/messages.ts";
import type { Json, JsonObject, JsonRpcMessage } from "../../jsonrpc/messages.ts";
import type { SseEvent } from "../../framing/sse.ts";
import { accepts, mediaType } from "../../http/headers.ts";
import { errorReply, readBodyCapped } from "../../http/body.ts";
import type { ReplayEngine } from "../engine.ts";
import type { ReplaySession } from "../session.ts";
import type { Outlet } from "../outlet.ts";
import type { SseChannel } from "./channel.ts";
import { isObject } from "../../util/helpers.ts";
import { streamResponse, tooManyStreams } from "./channel.ts";

/** The query parameter naming the session on the POST URL (the SDK's name). */
const SESSION_PARAM = "sessionId";
/** Where clients POST when the recording does not say. */
const DEFAULT_POST_PATH = "/message";

/** What the front end needs from the HTTP server around it. */
export interface LegacySseHost {
  /** A new SSE stream, or undefined when too many are open. */
  openChannel(): SseChannel | undefined;
  /** Largest request body accepted, in bytes. */
  maxBodyBytes: number;
  log?: (line: string) => void;
}

/** The POST path the recorded server named in its `endpoint` event. */
export function recordedPostPath(cassette: Cassette): string {
  for (const entry of cassette.entries) {
    if (entry.type !== "sse-event" || entry.sse.event !== "endpoint") continue;
    try {
      return new URL(entry.data, "http://recorded.invalid").pathname;
    } catch {
      break;
    }
  }
  return DEFAULT_POST_PATH;
}

/** The GET path a client of the recording connected to (`/sse` for most servers). */
export function recordedStreamPath(cassette: Cassette): string | undefined {
  const get = cassette.entries.find((entry) =>
    entry.type === "http-request" && entry.method === "GET"
  );
  return get?.type === "http-request" ? get.path.split("?")[0] : undefined;
}

/** One client connection: its stream and the recorded session serving it. */
class SseSession {
  /** Client requests and notifications received, the clock of unattributed recorded messages. */
  triggers = 0;
  #standaloneSent = 0;

  constructor(readonly id: string, readonly replay: ReplaySession, readonly channel: SseChannel) {}

  /** Writes one server message as the transport frames them: `event: message`. */
  send(data: string, sse: SseFields | undefined): void {
    const event: SseEvent = { event: "message", data };
    if (sse?.id !== undefined) event.id = sse.id;
    this.channel.write(event);
  }

  /** A recorded event without a JSON-RPC payload; the recorded `endpoint` is the upstream's, never replayed. */
  event(data: string, sse: SseFields): void {
    if (sse.event === "endpoint") return;
    const event: SseEvent = { data };
    if (sse.event !== undefined) event.event = sse.event;
    if (sse.id !== undefined) event.id = sse.id;
    if (sse.retry !== undefined) event.retry = sse.retry;
    this.channel.write(event);
  }

  /** Recorded messages no request explains (cassettes recorded elsewhere), once due. */
  pump(): void {
    const standalone = this.replay.recording?.standalone ?? [];
    while (this.#standaloneSent < standalone.length && !this.channel.closed) {
      const { afterTrigger, step } = standalone[this.#standaloneSent];
      if (afterTrigger > this.triggers) return;
      this.#standaloneSent++;
      if (step.kind === "sse-event") this.event(step.data, step.sse);
      else if (step.kind === "raw") this.send(step.text, step.sse);
      else this.send(step.text ?? JSON.stringify(step.msg), step.sse);
    }
  }

  get outlet(): Outlet {
    return {
      send: (message: JsonRpcMessage, sse?: SseFields, text?: string) =>
        Promise.resolve(this.send(text ?? JSON.stringify(message), sse)),
      raw: (text: string, sse?: SseFields) => Promise.resolve(this.send(text, sse)),
      event: (data: string, sse: SseFields) => Promise.resolve(this.event(data, sse)),
      fault: (fault) => {
        // The POST was answered 202 before replay began: only the stream can carry a fault.
        if (fault.kind !== "disconnect") return Promise.resolve(false);
        this.channel.error();
        return Promise.resolve(true);
      },
    };
  }
}

/** Serves a cassette over HTTP+SSE. */
export class LegacySseFrontEnd {
  #sessions = new Map<string, SseSession>();
  readonly postPath: string;

  constructor(readonly engine: ReplayEngine, readonly host: LegacySseHost) {
    this.postPath = recordedPostPath(engine.cassette);
  }

  /** Handles one request (Host and Origin already checked). */
  async handle(request: Request, url: URL): Promise<Response> {
    if (request.method === "GET") return this.#open(request);
    if (request.method === "POST") return await this.#post(request, url);
    return new Response(null, { status: 405, headers: { allow: "GET, POST" } });
  }

  /** GET: a new session, announced by its `endpoint` event. */
  #open(request: Request): Response {
    if (!accepts(request.headers.get("accept"), "text/event-stream")) {
      return errorReply({
        status: 406,
        code: ErrorCode.InvalidRequest,
        message: "Not Acceptable: Accept must list text/event-stream",
      });
    }
    const channel = this.host.openChannel();
    if (!channel) {
      return tooManyStreams();
    }
    const id = randomId();
    const session = new SseSession(id, this.engine.openSession(id), channel);
    this.#sessions.set(id, session);
    channel.onClose(() => {
      // The stream is the session: when it goes, so does the session.
      this.#sessions.delete(id);
      session.replay.close();
    });
    channel.write({
      event: "endpoint",
      data: `${this.postPath}?${SESSION_PARAM}=${encodeURIComponent(id)}`,
    });
    return streamResponse(channel);
  }

  /** POST: 202 at once; the replay's reply goes out on the session's stream. */
  async #post(request: Request, url: URL): Promise<Response> {
    const id = url.searchParams.get(SESSION_PARAM);
    if (!id) {
      return errorReply({
        status: 400,
        code: ErrorCode.InvalidRequest,
        message: `Bad Request: the ${SESSION_PARAM} query parameter is required`,
      });
    }
    const session = this.#sessions.get(id);
    if (!session) {
      return errorReply({
        status: 404,
        code: ErrorCode.InvalidRequest,
        message: `Session not found: ${id}`,
      });
    }
    if (mediaType(request.headers.get("content-type")) !== "application/json") {
      return errorReply({
        status: 415,
        code: ErrorCode.InvalidRequest,
        message: "Unsupported Media Type: Content-Type must be application/json",
      });
    }
    const read = await readBodyCapped(request, this.host.maxBodyBytes);
    if (read.tooLarge) {
      return errorReply({
        status: 413,
        code: ErrorCode.InvalidRequest,
        message: "Payload Too Large",
      });
    }
    let body: Json;
    const text = new TextDecoder().decode(read.bytes);
    try {
      body = JSON.parse(text) as Json;
    } catch {
      return errorReply({
        status: 400,
        code: ErrorCode.ParseError,
        message: "Parse error: the body is not valid JSON",
      });
    }
    const messages = Array.isArray(body) ? body : [body];
    if (messages.length === 0 || !messages.every(isObject)) {
      return errorReply({
        status: 400,
        code: ErrorCode.InvalidRequest,
        message: "Invalid Request: not a JSON-RPC message",
      });
    }
    const texts = Array.isArray(body) ? memberTexts(text, messages) : [text];
    messages.forEach((message, at) => this.#receive(session, message, texts?.[at]));
    return new Response("Accepted", { status: 202, headers: { "content-type": "text/plain" } });
  }

  /** `text`, the message's own text, keeps its id as written in the answer. */
  #receive(session: SseSession, message: JsonObject, text: string | undefined) {
    if (typeof message.method === "string") session.triggers++;
    const own = text === undefined ? undefined : lostIdText(text, message);
    const outlet = own === undefined
      ? session.outlet
      : keepingIdText(session.outlet, message.id as number, own);
    session.replay.receive(message, outlet)
      .catch((error) => this.host.log?.(`internal error: ${(error as Error).message}`))
      .finally(() => session.pump());
    session.pump();
  }

  /** Ends every session (the server is stopping). */
  finish(): void {
    for (const session of [...this.#sessions.values()]) session.channel.close();
  }
}
