/**
 * The live server of spy mode and `new_episodes` reached over Streamable
 * HTTP (`replay --on-miss live --url URL`) rather than started as a child:
 * our own client transport (src/client/http.ts, the one `verify --url` and
 * `check --url` use) carries one request at a time, answers matched by id.
 *
 * @module
 */
import { StreamableHttpClientTransport } from "../client/http.ts";
import { isRawFrame } from "../client/transport.ts";
import { UsageError } from "../errors/errors.ts";
import { ErrorCode, errorResponse, idKey } from "../jsonrpc/messages.ts";
import type { Json, JsonRpcId, JsonRpcMessage } from "../jsonrpc/messages.ts";
import type { LiveLink, Waiting } from "./live_server.ts";
import { routeAnswer } from "./live_server.ts";

/**
 * The URL as messages may show it: scheme, host, port and path. Its query
 * and credentials (often a token) never reach a message or a log.
 */
export function shownUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return parsed.origin + parsed.pathname;
  } catch {
    return "the --url";
  }
}

/** Checks `url` is an http:// or https:// URL; a UsageError naming `flag` otherwise. */
export function checkLiveUrl(url: string, flag: string): void {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    // Not quoted: a URL that fails to parse may still hold a token.
    throw new UsageError(`${flag} is not a valid http:// or https:// URL`);
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") {
    throw new UsageError(`${flag} must be http:// or https://, not ${parsed.protocol}`);
  }
}

/** A live Streamable HTTP server and the requests waiting for its answers. */
export class HttpLiveServer implements LiveLink {
  #transport: StreamableHttpClientTransport;
  #waiting: Waiting = new Map();
  #closed = false;
  readonly #shown: string;

  onOther: (message: JsonRpcMessage) => void = () => {};

  private constructor(url: string) {
    this.#shown = shownUrl(url);
    this.#transport = new StreamableHttpClientTransport(url);
    void this.#read();
  }

  /** Opens a transport to `url`; nothing is sent until the first request. */
  static start(url: string): HttpLiveServer {
    return new HttpLiveServer(url);
  }

  async #read(): Promise<void> {
    for await (const frame of this.#transport.messages) {
      if (isRawFrame(frame) || frame === null || typeof frame !== "object") continue;
      routeAnswer(this.#waiting, frame as JsonRpcMessage, this.onOther);
    }
  }

  /** Sends a notification or an answer to one of the server's requests. */
  async notify(message: JsonRpcMessage): Promise<void> {
    if (this.#closed) return;
    await this.#transport.send(message as unknown as Json).catch(() => {});
  }

  /** Sends a request; resolves with the answer, or an error answer when the server cannot be reached or is silent for `timeoutMs`. */
  async request(
    message: JsonRpcMessage & { id: JsonRpcId },
    timeoutMs = 60_000,
  ): Promise<JsonRpcMessage> {
    const fail = (text: string) => errorResponse(message.id, ErrorCode.InternalError, text);
    if (this.#closed) return fail(`The live server at ${this.#shown} is closed`);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const answered = new Promise<JsonRpcMessage>((resolve) => {
      this.#waiting.set(idKey(message.id), { id: message.id, resolve });
      timer = setTimeout(() => {
        this.#waiting.delete(idKey(message.id));
        resolve(fail(`The live server did not answer ${message.method} within ${timeoutMs} ms`));
      }, timeoutMs);
    });
    try {
      await this.#transport.send(message as unknown as Json);
    } catch {
      // The transport's message quotes the URL in full (its query may be a token).
      this.#waiting.delete(idKey(message.id));
      clearTimeout(timer);
      return fail(`Cannot reach the live server at ${this.#shown}`);
    }
    const answer = await answered;
    clearTimeout(timer);
    return answer;
  }

  /** Ends the HTTP session (a DELETE when the server gave one); nothing to wait for. */
  async stop(): Promise<undefined> {
    if (this.#closed) return undefined;
    this.#closed = true;
    await this.#transport.close();
    for (const waiter of this.#waiting.values()) {
      waiter.resolve(
        errorResponse(
          waiter.id,
          ErrorCode.InternalError,
          `The live server at ${this.#shown} closed`,
        ),
      );
    }
    this.#waiting.clear();
    return undefined;
  }
}
