/**
 * A Streamable HTTP client transport for mcp-cassette's own client
 * (`check --url`, `verify --url`). Each message is POSTed; the answer comes
 * back as a JSON body or an SSE stream, whose events are yielded in order.
 * The session id and negotiated protocol version ride on every later
 * request. It uses the shared HTTP pieces in src/http/ (media types, the SSE
 * splitter); they know nothing of it.
 *
 * @example
 * ```ts
 * import { StreamableHttpClientTransport } from "./src/client/http.ts";
 * const transport = new StreamableHttpClientTransport("http://127.0.0.1:3001/mcp");
 * ```
 *
 * @module
 */
import { ServerUnreachableError } from "../errors/errors.ts";
import type { Json } from "../jsonrpc/messages.ts";
import type { ClientTransport, IncomingFrame } from "./transport.ts";
import { mediaType } from "../http/headers.ts";
import { SseSplitter } from "../http/sse_splitter.ts";

/** Streamable HTTP to one server URL. */
export class StreamableHttpClientTransport implements ClientTransport {
  readonly describe: string;
  readonly closed: Promise<number | undefined>;
  readonly messages: AsyncIterable<IncomingFrame>;
  #queue: IncomingFrame[] = [];
  #wake: (() => void) | undefined;
  #ended = false;
  #resolveClosed!: (value: number | undefined) => void;
  #sessionId: string | undefined;
  #protocolVersion: string | undefined;
  #inFlight = new Set<AbortController>();

  constructor(readonly url: string, readonly headers: Record<string, string> = {}) {
    this.describe = `the server at ${url}`;
    this.closed = new Promise((resolve) => (this.#resolveClosed = resolve));
    this.messages = this.#iterate();
  }

  async send(message: Json): Promise<void> {
    if (this.#ended) {
      throw new ServerUnreachableError(`Cannot send to ${this.describe}: the transport is closed`);
    }
    const headers: Record<string, string> = {
      ...this.headers,
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
    };
    if (this.#sessionId) headers["mcp-session-id"] = this.#sessionId;
    if (this.#protocolVersion) headers["mcp-protocol-version"] = this.#protocolVersion;
    const controller = new AbortController();
    this.#inFlight.add(controller);
    let response: Response;
    try {
      response = await fetch(this.url, {
        method: "POST",
        headers,
        body: JSON.stringify(message),
        signal: controller.signal,
      });
    } catch (error) {
      this.#inFlight.delete(controller);
      throw new ServerUnreachableError(
        `Cannot reach ${this.describe}: ${(error as Error).message}`,
      );
    }
    const sessionId = response.headers.get("mcp-session-id");
    if (sessionId) this.#sessionId = sessionId;
    const type = mediaType(response.headers.get("content-type"));
    if (type === "text/event-stream" && response.body) {
      void this.#readStream(response.body, message).finally(() =>
        this.#inFlight.delete(controller)
      );
      return;
    }
    const text = await response.text().catch(() => "");
    this.#inFlight.delete(controller);
    if (text.trim() !== "") {
      try {
        this.#deliver(JSON.parse(text) as Json, message);
      } catch {
        this.#push({ raw: text });
      }
    } else if (!response.ok) {
      throw new ServerUnreachableError(`${this.describe} answered HTTP ${response.status}`);
    }
  }

  async close(): Promise<void> {
    for (const controller of this.#inFlight) controller.abort();
    if (this.#sessionId && !this.#ended) {
      await fetch(this.url, {
        method: "DELETE",
        headers: { ...this.headers, "mcp-session-id": this.#sessionId },
      })
        .then((response) => response.body?.cancel())
        .catch(() => {});
    }
    this.#end();
  }

  #end() {
    if (this.#ended) return;
    this.#ended = true;
    this.#resolveClosed(undefined);
    this.#wake?.();
  }

  async #readStream(body: ReadableStream<Uint8Array>, sent: Json) {
    const splitter = new SseSplitter();
    const reader = body.getReader();
    try {
      while (true) {
        const { done, value } = await reader.read();
        if (done) break;
        for (const event of splitter.push(value)) this.#event(event.data, sent);
      }
      for (const event of splitter.end()) this.#event(event.data, sent);
    } catch {
      // Closed by us or by the server.
    }
  }

  #event(data: string, sent: Json) {
    if (data.trim() === "") return; // a priming event
    try {
      this.#deliver(JSON.parse(data) as Json, sent);
    } catch {
      this.#push({ raw: data });
    }
  }

  /** Learns the negotiated protocol version from the initialize answer. */
  #deliver(frame: Json, sent: Json) {
    const request = sent as { method?: string; id?: unknown };
    const answer = frame as { id?: unknown; result?: { protocolVersion?: unknown } };
    if (
      request.method === "initialize" && answer.id === request.id &&
      typeof answer.result?.protocolVersion === "string"
    ) {
      this.#protocolVersion = answer.result.protocolVersion;
    }
    if (Array.isArray(frame)) { for (const item of frame) this.#push(item); }
    else this.#push(frame);
  }

  #push(frame: IncomingFrame) {
    this.#queue.push(frame);
    this.#wake?.();
  }

  async *#iterate(): AsyncGenerator<IncomingFrame> {
    while (true) {
      while (this.#queue.length > 0) yield this.#queue.shift()!;
      if (this.#ended) return;
      await new Promise<void>((resolve) => (this.#wake = resolve));
      this.#wake = undefined;
    }
  }
}
