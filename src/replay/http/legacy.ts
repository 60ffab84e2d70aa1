/**
 * The legacy era (2025-03-26 … 2025-11-25) over Streamable HTTP:
 * `initialize` opens a session (a fresh `Mcp-Session-Id` when the recording
 * had them), each new client session is served from the next recorded one,
 * the GET stream delivers the recorded unsolicited messages, `Last-Event-ID`
 * resumes, DELETE ends a session, and a batch is answered as one array.
 *
 * @module
 */
import { randomId } from "../../http/random_id.ts";
import { accepts, requestHeads } from "../../http/headers.ts";
import type { RequestHeads } from "../../http/headers.ts";
import { errorReply, jsonResponse } from "../../http/body.ts";
import { ErrorCode } from "../../jsonrpc/messages.ts";
import type { BodyDeadline } from "../../runtime/mod.ts";
import type { JsonObject } from "../../jsonrpc/messages.ts";
import { isObject } from "../../util/helpers.ts";
import { answerBatch, receiveGuarded } from "../batch.ts";
import { memberTexts } from "../exact_id.ts";
import type { Outlet } from "../outlet.ts";
import { sseEvent } from "./events.ts";
import type { HttpHost } from "./host.ts";
import { expectsAnswer } from "./host.ts";
import { LiveSession } from "./live_session.ts";
import { streamResponse, tooManyStreams } from "./channel.ts";

/** Legacy protocol revisions the replay server accepts in `MCP-Protocol-Version`. */
export const LEGACY_VERSIONS = ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"];
const SESSION_NOT_FOUND = -32001;

/** Serves the legacy era's POST, GET and DELETE. */
export class LegacyHttp {
  #sessions = new Map<string, LiveSession>();
  #sessionless: LiveSession | undefined;
  #usesSessionIds: boolean;

  constructor(private readonly host: HttpHost) {
    this.#usesSessionIds = host.engine.episodes.sessions.some((session) =>
      session.sessionId !== undefined
    );
  }

  /**
   * Answers one request of the legacy era; `deadline` bounds the reading of
   * a POST's body; `heads`, its headers when the server read them already.
   */
  handle(
    request: Request,
    deadline?: BodyDeadline,
    heads: RequestHeads = requestHeads(request),
  ): Promise<Response> {
    const method = request.method;
    if (method === "POST") return this.#legacyPost(request, deadline, heads);
    try {
      if (method === "GET") return Promise.resolve(this.#legacyGet(request, heads));
      if (method === "DELETE") return Promise.resolve(this.#legacyDelete(heads));
    } catch (error) {
      return Promise.reject(error);
    }
    return Promise.resolve(
      new Response(null, { status: 405, headers: { allow: "GET, POST, DELETE" } }),
    );
  }

  /** Closes every live session. */
  finish(): void {
    for (const live of this.#sessions.values()) live.close();
    this.#sessionless?.close();
  }

  /** The live session a legacy request belongs to, or the refusal. */
  #legacySession(heads: RequestHeads): LiveSession | Response {
    const sessionId = heads.sessionId;
    if (!this.#usesSessionIds) {
      return this.#sessionless ??= new LiveSession(this.host.engine.openSession(), undefined);
    }
    if (!sessionId) {
      return errorReply({
        status: 400,
        code: ErrorCode.InvalidRequest,
        message: "Bad Request: Mcp-Session-Id header is required",
      });
    }
    const live = this.#sessions.get(sessionId);
    if (!live || live.ended) {
      return errorReply({ status: 404, code: SESSION_NOT_FOUND, message: "Session not found" });
    }
    return live;
  }

  #checkLegacyVersion(heads: RequestHeads): Response | undefined {
    const version = heads.protocolVersion;
    if (version !== null && !LEGACY_VERSIONS.includes(version)) {
      return errorReply({
        status: 400,
        code: ErrorCode.InvalidRequest,
        message: `Bad Request: Unsupported protocol version: ${version} (supported versions: ${
          LEGACY_VERSIONS.join(", ")
        })`,
      });
    }
    return undefined;
  }

  async #legacyPost(
    request: Request,
    deadline: BodyDeadline | undefined,
    heads: RequestHeads,
  ): Promise<Response> {
    const read = await this.host.readPost(request, deadline, heads);
    if ("error" in read) return read.error;
    if (isObject(read.body)) return await this.#postOne(heads, read.body, read.text);
    const messages = Array.isArray(read.body) ? read.body : [read.body];
    const batch = Array.isArray(read.body) && read.body.length > 0;
    if (!batch && !messages.every(isObject)) {
      return errorReply({
        status: 400,
        code: ErrorCode.InvalidRequest,
        message: "Invalid Request: not a JSON-RPC message",
      });
    }
    const objects = messages.filter(isObject) as JsonObject[];
    const initialize = objects.find((message) =>
      message.method === "initialize" && expectsAnswer(message)
    );
    let live: LiveSession;
    if (initialize) {
      if (objects.length > 1) {
        return errorReply({
          status: 400,
          code: ErrorCode.InvalidRequest,
          message: "Invalid Request: initialize must be sent alone",
        });
      }
      live = this.#open();
    } else {
      const found = this.#legacySession(heads);
      if (found instanceof Response) return found;
      live = found;
      const refused = this.#checkLegacyVersion(heads);
      if (refused) return refused;
    }
    if (batch && (messages.length > 1 || !isObject(messages[0]))) {
      return await this.#batch(live, messages, read.text);
    }
    const requests = objects.filter(expectsAnswer);
    if (requests.length === 0) {
      for (const message of objects) this.#receiveBackground(live, message);
      return new Response(null, { status: 202, headers: sessionHeaders(live) });
    }
    if (objects.length > 1) return await this.#batch(live, objects);
    const own = batch ? memberTexts(read.text, messages)?.[0] : read.text;
    return await this.host.replyTo(live, objects[0], sessionHeaders(live), undefined, own);
  }

  /**
   * One message, not in a batch (nearly every POST): what `#legacyPost` does
   * for it, without the arrays a batch needs.
   */
  #postOne(heads: RequestHeads, message: JsonObject, text: string): Promise<Response> | Response {
    let live: LiveSession;
    if (message.method === "initialize" && expectsAnswer(message)) live = this.#open();
    else {
      const found = this.#legacySession(heads);
      if (found instanceof Response) return found;
      const refused = this.#checkLegacyVersion(heads);
      if (refused) return refused;
      live = found;
    }
    if (!expectsAnswer(message)) {
      this.#receiveBackground(live, message);
      return new Response(null, { status: 202, headers: sessionHeaders(live) });
    }
    return this.host.replyTo(live, message, sessionHeaders(live), undefined, text);
  }

  /** A new live session for an initialize: the next recorded one, with a fresh id when recorded with ids. */
  #open(): LiveSession {
    const sessionId = this.#usesSessionIds ? randomId() : undefined;
    const live = new LiveSession(this.host.engine.openSession(sessionId), sessionId);
    if (sessionId) this.#sessions.set(sessionId, live);
    else {
      this.#sessionless?.close();
      this.#sessionless = live;
    }
    return live;
  }

  /** A message whose outputs, if any, belong on the GET stream (notifications, client answers). */
  #receiveBackground(live: LiveSession, message: JsonObject) {
    if (typeof message.method === "string") live.triggers++;
    receiveGuarded(live.replay, message, this.#background(live), this.host.options.log)
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

  /** A 2025-03-26 batch: the answers go back as one JSON array (see ./replay/batch.ts). */
  async #batch(live: LiveSession, messages: unknown[], text?: string): Promise<Response> {
    for (const message of messages) {
      if (isObject(message) && typeof message.method === "string") live.triggers++;
    }
    const answers = await answerBatch(
      live.replay,
      messages,
      this.#background(live),
      this.host.options.log,
      text,
    );
    live.pump();
    if (answers === undefined) {
      return new Response(null, { status: 202, headers: sessionHeaders(live) });
    }
    return jsonResponse(answers, 200, sessionHeaders(live));
  }

  #legacyGet(request: Request, heads: RequestHeads): Response {
    if (!accepts(heads.accept, "text/event-stream")) {
      return errorReply({
        status: 406,
        code: ErrorCode.InvalidRequest,
        message: "Not Acceptable: Accept must list text/event-stream",
      });
    }
    const found = this.#legacySession(heads);
    if (found instanceof Response) return found;
    const live = found;
    const refused = this.#checkLegacyVersion(heads);
    if (refused) return refused;
    const lastEventId = request.headers.get("last-event-id");
    if (lastEventId !== null) return this.#resume(live, lastEventId);
    const recorded = live.recording;
    const status = recorded ? this.host.index.getStatus.get(recorded.id) : undefined;
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
      return errorReply({
        status: 409,
        code: ErrorCode.InvalidRequest,
        message: "Conflict: only one SSE stream is allowed per session",
      });
    }
    const channel = this.host.openChannel();
    if (!channel) {
      return tooManyStreams();
    }
    live.get = channel;
    // Recorded servers prime the stream; so does the replay, to flush the headers.
    channel.writeText(": stream open\n\n");
    live.pump();
    return streamResponse(channel, 200, sessionHeaders(live));
  }

  /** GET with Last-Event-ID: the rest of that stream, as recorded. */
  #resume(live: LiveSession, lastEventId: string): Response {
    const at = live.log.findIndex((event) => event.id === lastEventId);
    if (at < 0) {
      return errorReply({
        status: 404,
        code: ErrorCode.InvalidRequest,
        message: `Unknown Last-Event-ID ${lastEventId}`,
      });
    }
    const stream = live.log[at].stream;
    const channel = this.host.openChannel();
    if (!channel) {
      return tooManyStreams();
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
    return streamResponse(channel, 200, sessionHeaders(live));
  }

  #legacyDelete(heads: RequestHeads): Response {
    const found = this.#legacySession(heads);
    if (found instanceof Response) return found;
    found.close();
    this.host.engine.release(found.replay);
    if (found === this.#sessionless) this.#sessionless = undefined;
    // A deleted session is forgotten: a later request with its id gets 404
    // as an unknown one does. Keeping deleted sessions (or only their ids)
    // made a long-running replay grow with every session it served.
    if (found.sessionId) this.#sessions.delete(found.sessionId);
    return new Response(null, { status: 200 });
  }
}

/** Shared by every response: never mutated (responses copy what they are given). */
const NO_HEADERS: Record<string, string> = Object.freeze({});

function sessionHeaders(live: LiveSession | undefined): Record<string, string> {
  return live?.sessionId ? live.headers : NO_HEADERS;
}
