/**
 * What the era front ends (./legacy.ts, ./modern.ts) and the reply
 * (./reply.ts) use of the HTTP replay server (./server.ts), so that none of
 * them imports it.
 *
 * @module
 */
import type { Json, JsonObject } from "../../jsonrpc/messages.ts";
import type { BodyDeadline } from "../../runtime/mod.ts";
import type { RequestHeads } from "../../http/headers.ts";
import type { ReplayEngine } from "../engine.ts";
import type { ReplaySession } from "../session.ts";
import type { SseChannel } from "./channel.ts";
import type { ExchangeIndex } from "./exchanges.ts";
import type { LiveSession } from "./live_session.ts";
import type { HttpServeOptions } from "./options.ts";

/** The server's shared pieces. */
export interface HttpHost {
  readonly engine: ReplayEngine;
  readonly options: HttpServeOptions;
  readonly index: ExchangeIndex;
  /** A new SSE stream, or undefined when the most allowed are open. */
  openChannel(): SseChannel | undefined;
  /**
   * The shared POST checks (Accept, Content-Type, size, JSON): the body, or
   * the refusal; `heads`, the request's headers when read already.
   */
  readPost(
    request: Request,
    deadline?: BodyDeadline,
    heads?: RequestHeads,
  ): Promise<{ body: Json; text: string } | { error: Response }>;
  /**
   * Replays one request; resolves with its response once the first byte of
   * it is known. `text`, the request's own text, keeps its id as written.
   */
  replyTo(
    live: LiveSession | undefined,
    message: JsonObject,
    headers: Record<string, string>,
    replay?: ReplaySession,
    text?: string,
  ): Promise<Response>;
}

/** A message the client expects an answer to: a method and a non-null id (any id, valid or not, gets one). */
export function expectsAnswer(message: JsonObject): boolean {
  return typeof message.method === "string" && "id" in message && message.id !== null;
}
