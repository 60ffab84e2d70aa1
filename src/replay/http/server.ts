/**
 * The HTTP replay server: a small router over the era's front end (legacy
 * Streamable HTTP, the stateless era, or HTTP+SSE), with the pieces they
 * share — the POST checks, the recorded well-known metadata, SSE stream
 * accounting and the reply to one request.
 *
 * @module
 */
import { accepts, mediaType, requestHeads } from "../../http/headers.ts";
import type { RequestHeads } from "../../http/headers.ts";
import { errorReply, jsonResponse, readJsonCapped } from "../../http/body.ts";
import { checkHostAndOriginOf, originFor } from "../../http/guard.ts";
import type { ListenAddress } from "../../http/guard.ts";
import { ErrorCode } from "../../jsonrpc/messages.ts";
import { requestTimeout } from "../../runtime/request_deadline.ts";
import type { BodyDeadline, RawHeaders } from "../../runtime/mod.ts";
import type { Json, JsonObject } from "../../jsonrpc/messages.ts";
import { receiveGuarded } from "../batch.ts";
import type { ReplayEngine } from "../engine.ts";
import type { ReplaySession } from "../session.ts";
import { SseChannel } from "./channel.ts";
import type { ExchangeIndex } from "./exchanges.ts";
import type { HttpHost } from "./host.ts";
import { LegacyHttp } from "./legacy.ts";
import { LegacySseFrontEnd, recordedStreamPath } from "./legacy_sse.ts";
import type { LiveSession } from "./live_session.ts";
import { ModernHttp } from "./modern.ts";
import type { HttpServeOptions } from "./options.ts";
import { Reply } from "./reply.ts";

/** The replay server's state. */
export class HttpReplayServer implements HttpHost {
  readonly index: ExchangeIndex;
  #openStreams = 0;
  /** Set when the cassette was recorded on HTTP+SSE: that transport is served instead. */
  readonly legacySse: LegacySseFrontEnd | undefined;
  #legacy: LegacyHttp | undefined;
  #modern: ModernHttp | undefined;
  bound: ListenAddress = { hostname: "127.0.0.1", port: 0 };
  /** The last Accept and Content-Type values a POST passed with (see `readPost`). */
  #acceptedAccept: string | null | undefined;
  #acceptedType: string | null | undefined;

  constructor(readonly engine: ReplayEngine, readonly options: HttpServeOptions) {
    this.index = engine.episodes.http;
    if (engine.cassette.header.transport === "sse") {
      this.legacySse = new LegacySseFrontEnd(engine, {
        openChannel: () => this.openChannel(),
        maxBodyBytes: options.maxBodyBytes ?? 4 * 1024 * 1024,
        log: options.log,
      });
    } else if (engine.era === "modern") this.#modern = new ModernHttp(this);
    else this.#legacy = new LegacyHttp(this);
  }

  /** The path the client is to use: the recorded one. */
  get path(): string {
    const cassette = this.engine.cassette;
    return this.legacySse
      ? pathOf(cassette.header.server.url) ?? recordedStreamPath(cassette) ?? "/sse"
      : this.index.path ?? pathOf(cassette.header.server.url) ?? "/mcp";
  }

  openChannel(): SseChannel | undefined {
    if (this.#openStreams >= (this.options.maxStreams ?? 1024)) return undefined;
    const channel = new SseChannel();
    this.#openStreams++;
    channel.onClose(() => this.#openStreams--);
    return channel;
  }

  /**
   * Answers one request; `deadline`, when the server gives one, bounds the
   * reading of its body, and `raw`, when it gives them, are the request's
   * headers (./http.ts).
   */
  handle(request: Request, deadline?: BodyDeadline, raw?: RawHeaders): Promise<Response> {
    // Not async: the era's handler's promise is handed on as it is, rather
    // than awaited in one more frame per request (the answer is known by then).
    try {
      const heads = requestHeads(request, raw);
      const refused = checkHostAndOriginOf(heads.host, heads.origin, this.bound);
      if (refused) {
        return Promise.resolve(errorReply({
          status: refused.status,
          code: ErrorCode.InvalidRequest,
          message: refused.message,
        }));
      }
      // Only metadata and HTTP+SSE need the parsed URL; the rest pass on the path's prefix.
      const url = request.url;
      const control = this.options.control;
      const path = url.indexOf("/", url.indexOf("//") + 2);
      if (control && url.startsWith("/__cassette/", path)) return control(request, deadline, raw);
      if (url.startsWith("/.well-known/", path)) {
        return Promise.resolve(this.#wellKnown(new URL(url)));
      }
      if (this.legacySse) return this.legacySse.handle(request, new URL(url));
      if (this.#modern) return this.#modern.handle(request, deadline, heads);
      return this.#legacy!.handle(request, deadline, heads);
    } catch (error) {
      return Promise.reject(error);
    }
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

  /**
   * Shared POST checks: Accept, Content-Type, size, JSON; the body read
   * within `deadline`; `heads`, the request's headers read already.
   */
  async readPost(
    request: Request,
    deadline?: BodyDeadline,
    heads: RequestHeads = requestHeads(request),
  ): Promise<{ body: Json; text: string } | { error: Response }> {
    const accept = heads.accept;
    // A client sends the same Accept and Content-Type on every POST: the last
    // ones that passed are compared rather than looked up again.
    if (accept !== this.#acceptedAccept && !this.#acceptable(accept)) {
      return {
        error: errorReply({
          status: 406,
          code: ErrorCode.InvalidRequest,
          message: "Not Acceptable: Accept must list application/json and text/event-stream",
        }),
      };
    }
    const contentType = heads.contentType;
    if (contentType !== this.#acceptedType && !this.#jsonType(contentType)) {
      return {
        error: errorReply({
          status: 415,
          code: ErrorCode.InvalidRequest,
          message: "Unsupported Media Type: Content-Type must be application/json",
        }),
      };
    }
    const max = this.options.maxBodyBytes ?? 4 * 1024 * 1024;
    const reading = readJsonCapped(request, max, heads.contentLength);
    const read = deadline ? await deadline.within(reading) : await reading;
    if (read === undefined) return { error: requestTimeout() };
    if (read.tooLarge) {
      return {
        error: errorReply({
          status: 413,
          code: ErrorCode.InvalidRequest,
          message: "Payload Too Large",
        }),
      };
    }
    if (read.invalid) {
      return {
        error: errorReply({
          status: 400,
          code: ErrorCode.ParseError,
          message: "Parse error: the body is not valid JSON",
        }),
      };
    }
    return { body: read.json, text: read.text };
  }

  #acceptable(accept: string | null): boolean {
    if (!accepts(accept, "application/json") || !accepts(accept, "text/event-stream")) return false;
    this.#acceptedAccept = accept;
    return true;
  }

  #jsonType(contentType: string | null): boolean {
    if (mediaType(contentType) !== "application/json") return false;
    this.#acceptedType = contentType;
    return true;
  }

  /** Replays one request; resolves with its response once the first byte of it is known. */
  replyTo(
    live: LiveSession | undefined,
    message: JsonObject,
    headers: Record<string, string>,
    replay?: ReplaySession,
    text?: string,
  ): Promise<Response> {
    const session = replay ?? live!.replay;
    if (live) live.triggers++;
    const reply = new Reply(live, message.id as Json, headers, this);
    const finish = () => {
      reply.finish();
      live?.pump();
    };
    receiveGuarded(session, message, reply, this.options.log, text).then(finish);
    live?.pump();
    return reply.response;
  }

  /** Ends every live session and stream. */
  finish(): void {
    this.legacySse?.finish();
    this.#legacy?.finish();
  }
}

function pathOf(url: string | undefined): string | undefined {
  if (!url) return undefined;
  try {
    return new URL(url).pathname;
  } catch {
    return undefined;
  }
}
