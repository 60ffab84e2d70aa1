/**
 * A JSON-RPC connection over a {@linkcode ClientTransport}: requests with ids
 * and a per-request timeout, notifications, and answers to the requests a
 * server sends to its client (ping, sampling, elicitation, roots).
 *
 * @module
 */
import { CassetteError, ServerUnreachableError } from "../errors/errors.ts";
import { classify, ErrorCode, idKey } from "../jsonrpc/messages.ts";
import type { Json, JsonObject, JsonRpcId, JsonRpcMessage } from "../jsonrpc/messages.ts";
import type { ClientTransport, IncomingFrame } from "./transport.ts";
import { isRawFrame } from "./transport.ts";

/** Default time a request may wait for its answer. */
export const DEFAULT_REQUEST_TIMEOUT_MS = 10_000;

/** A request that got no answer in time. */
export class RequestTimeoutError extends CassetteError {
  constructor(readonly method: string, readonly timeoutMs: number) {
    super(`No answer to ${method} within ${timeoutMs} ms`);
  }
}

/** The server went away while a request waited. */
export class ConnectionClosedError extends CassetteError {
  constructor(readonly method: string, detail: string) {
    super(`The server closed the connection before answering ${method}${detail}`);
  }
}

/** A JSON-RPC error answer, raised by {@linkcode McpConnection.request}. */
export class RpcError extends CassetteError {
  constructor(
    readonly method: string,
    readonly code: number,
    readonly rpcMessage: string,
    readonly data?: Json,
  ) {
    super(`${method} failed: ${rpcMessage} (${code})`);
  }
}

/** What a handler of a server→client request returns. */
export type ServerRequestAnswer = { result: Json } | {
  error: { code: number; message: string; data?: Json };
};

/** Answers one request the server sent to us. */
export type ServerRequestHandler = (
  request: JsonRpcMessage & { id: JsonRpcId; method: string },
) => Promise<ServerRequestAnswer> | ServerRequestAnswer;

/** Sees every frame either way: for recording a session. */
export type FrameObserver = (dir: "c2s" | "s2c", frame: IncomingFrame) => void;

/** Options for {@linkcode McpConnection}. */
export interface ConnectionOptions {
  /** Answers server→client requests. Default: `ping` gets `{}`, others "method not found". */
  onServerRequest?: ServerRequestHandler;
  /** Called for each notification from the server. */
  onNotification?: (message: JsonRpcMessage & { method: string }) => void;
  /** Called for each frame sent or received. */
  observe?: FrameObserver;
  /** Default per-request timeout. */
  timeoutMs?: number;
}

/** Options of one request. */
export interface RequestOptions {
  timeoutMs?: number;
}

interface Pending {
  method: string;
  resolve(message: JsonRpcMessage): void;
  reject(error: Error): void;
  timer: ReturnType<typeof setTimeout>;
}

/** The default answer to a server→client request. */
export function defaultServerRequestAnswer(method: string): ServerRequestAnswer {
  if (method === "ping") return { result: {} };
  return {
    error: { code: ErrorCode.MethodNotFound, message: `mcp-cassette does not handle ${method}` },
  };
}

/**
 * A client-side JSON-RPC connection.
 *
 * @example
 * ```ts
 * const connection = new McpConnection(new StdioClientTransport(["node", "server.js"]));
 * const tools = await connection.request("tools/list", {});
 * await connection.close();
 * ```
 */
export class McpConnection {
  #pending = new Map<string, Pending>();
  #nextId = 1;
  #ended = false;
  #framesReceived = 0;
  #endReason = "";
  #options: ConnectionOptions;
  /** Resolves when the server's message stream has ended. */
  readonly ended: Promise<void>;

  constructor(readonly transport: ClientTransport, options: ConnectionOptions = {}) {
    this.#options = options;
    this.ended = this.#readLoop();
    // Only a start failure ends things from here: an exit is acted on once
    // stdout has been read to its end, so a last answer is never lost.
    transport.closed.catch((error: Error) => this.#fail(error));
  }

  /** How many frames the server has sent so far. */
  get framesReceived(): number {
    return this.#framesReceived;
  }

  /** True once the server is gone. */
  get isEnded(): boolean {
    return this.#ended;
  }

  /**
   * Sends a request and resolves with the whole response message (a result
   * or an error). Rejects on timeout or when the server goes away.
   */
  call(
    method: string,
    params?: JsonObject | Json[],
    options: RequestOptions = {},
  ): Promise<JsonRpcMessage> {
    const id = this.#nextId++;
    const message: JsonRpcMessage = { jsonrpc: "2.0", id, method };
    if (params !== undefined) message.params = params;
    return this.#exchange(message, id, method, options);
  }

  /** Sends a request and resolves with its result; an error answer rejects with {@linkcode RpcError}. */
  async request(
    method: string,
    params?: JsonObject,
    options: RequestOptions = {},
  ): Promise<JsonObject> {
    const response = await this.call(method, params, options);
    if (response.error) {
      throw new RpcError(method, response.error.code, response.error.message, response.error.data);
    }
    const result = response.result;
    return result !== null && typeof result === "object" && !Array.isArray(result) ? result : {};
  }

  /** Sends a notification. */
  async notify(method: string, params?: JsonObject): Promise<void> {
    const message: JsonRpcMessage = { jsonrpc: "2.0", method };
    if (params !== undefined) message.params = params;
    await this.sendRaw(message as Json);
  }

  /** Sends any message as is (no id bookkeeping). */
  async sendRaw(message: Json): Promise<void> {
    this.#options.observe?.("c2s", message);
    await this.transport.send(message);
  }

  /** Stops the server and rejects what still waits. */
  async close(): Promise<void> {
    await this.transport.close();
    this.#end("");
    await this.ended;
  }

  #exchange(message: JsonRpcMessage, id: JsonRpcId, method: string, options: RequestOptions) {
    if (this.#ended) return Promise.reject(new ConnectionClosedError(method, this.#endReason));
    const timeoutMs = options.timeoutMs ?? this.#options.timeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
    return new Promise<JsonRpcMessage>((resolve, reject) => {
      const key = idKey(id);
      const timer = setTimeout(() => {
        this.#pending.delete(key);
        reject(new RequestTimeoutError(method, timeoutMs));
      }, timeoutMs);
      this.#pending.set(key, { method, resolve, reject, timer });
      this.sendRaw(message as Json).catch((error: Error) => {
        clearTimeout(timer);
        this.#pending.delete(key);
        reject(error);
      });
    });
  }

  async #readLoop(): Promise<void> {
    try {
      for await (const frame of this.transport.messages) {
        this.#framesReceived++;
        this.#options.observe?.("s2c", frame);
        if (!isRawFrame(frame)) this.#dispatch(frame as JsonRpcMessage);
      }
    } catch (error) {
      this.#fail(error as Error);
      return;
    }
    // Let an exit code (or a start failure) arrive before naming the reason.
    const code = await Promise.race([
      this.transport.closed.catch(() => undefined),
      new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), 200)),
    ]);
    this.#end(code === undefined ? "" : ` (it exited with code ${code})`);
  }

  #dispatch(message: JsonRpcMessage) {
    const kind = classify(message);
    if (kind === "response" || kind === "error") {
      const key = idKey(message.id);
      const pending = this.#pending.get(key);
      if (!pending) return;
      this.#pending.delete(key);
      clearTimeout(pending.timer);
      pending.resolve(message);
    } else if (kind === "request") {
      this.#answer(message as JsonRpcMessage & { id: JsonRpcId; method: string });
    } else if (kind === "notification") {
      this.#options.onNotification?.(message as JsonRpcMessage & { method: string });
    }
  }

  async #answer(request: JsonRpcMessage & { id: JsonRpcId; method: string }) {
    let answer: ServerRequestAnswer;
    try {
      answer = this.#options.onServerRequest
        ? await this.#options.onServerRequest(request)
        : defaultServerRequestAnswer(request.method);
    } catch (error) {
      answer = { error: { code: ErrorCode.InternalError, message: (error as Error).message } };
    }
    const reply = { jsonrpc: "2.0", id: request.id, ...answer } as Json;
    await this.sendRaw(reply).catch(() => {});
  }

  #end(reason: string) {
    if (this.#ended) return;
    this.#ended = true;
    this.#endReason = reason;
    for (const [key, pending] of this.#pending) {
      clearTimeout(pending.timer);
      pending.reject(new ConnectionClosedError(pending.method, reason));
      this.#pending.delete(key);
    }
  }

  #fail(error: Error) {
    if (this.#ended) return;
    this.#ended = true;
    const failure = error instanceof CassetteError
      ? error
      : new ServerUnreachableError(error.message);
    this.#endReason = `: ${failure.message}`;
    for (const [key, pending] of this.#pending) {
      clearTimeout(pending.timer);
      pending.reject(failure);
      this.#pending.delete(key);
    }
  }
}
