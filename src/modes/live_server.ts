/**
 * The live server `new_episodes` forwards misses to: started lazily on the
 * first miss, spoken to over stdio, one request at a time matched by id.
 *
 * @module
 */
import { ServerUnreachableError } from "../errors/errors.ts";
import { JsonlLineStream } from "../framing/jsonl.ts";
import { ErrorCode, errorResponse, idKey } from "../jsonrpc/messages.ts";
import type { JsonRpcId, JsonRpcMessage } from "../jsonrpc/messages.ts";
import { runtime } from "../runtime/mod.ts";
import type { ChildProcess } from "../runtime/mod.ts";
import { ChildStopper, DEFAULT_GRACE_MS } from "../runtime/stop_child.ts";
import type { ChildOutcome } from "../runtime/stop_child.ts";

const encoder = new TextEncoder();

/**
 * What `new_episodes` and spy mode need of a live server, however it is
 * reached: this module's stdio child, or ./live_http.ts over Streamable HTTP.
 */
export interface LiveLink {
  /** Every server message other than an awaited answer (notifications, its own requests). */
  onOther: (message: JsonRpcMessage) => void;
  /** Sends a notification or an answer to one of the server's requests. */
  notify(message: JsonRpcMessage): Promise<void>;
  /** Sends a request and resolves with the server's answer (an error answer when there is none). */
  request(message: JsonRpcMessage & { id: JsonRpcId }, timeoutMs?: number): Promise<JsonRpcMessage>;
  /** Ends the server or the session; a child's outcome, undefined over HTTP. */
  stop(graceMs?: number): Promise<ChildOutcome | undefined>;
}

/** A live stdio server and the requests waiting for its answers. */
export class LiveServer implements LiveLink {
  #child: ChildProcess;
  #writer: WritableStreamDefaultWriter<Uint8Array>;
  #waiting: Waiting = new Map();
  #exited = false;

  /** Every server message other than an awaited answer (notifications, its own requests). */
  onOther: (message: JsonRpcMessage) => void = () => {};

  private constructor(readonly command: string[], child: ChildProcess) {
    this.#child = child;
    this.#writer = child.stdin.getWriter();
    void this.#read();
    child.exited.then(() => this.#gone(), () => this.#gone());
  }

  /** Starts the server. */
  static start(command: string[]): LiveServer {
    try {
      return new LiveServer(command, runtime.spawn(command, { stderr: "ignore" }));
    } catch (error) {
      throw new ServerUnreachableError(
        `Cannot start the live server ${JSON.stringify(command.join(" "))}: ${
          (error as Error).message
        }`,
      );
    }
  }

  async #read(): Promise<void> {
    try {
      for await (const line of this.#child.stdout.pipeThrough(new JsonlLineStream())) {
        let message: JsonRpcMessage;
        try {
          message = JSON.parse(line);
        } catch {
          continue; // A banner or log line: not part of any exchange.
        }
        routeAnswer(this.#waiting, message, this.onOther);
      }
    } catch {
      // The server went away; #gone answers whoever waits.
    }
    this.#gone();
  }

  #gone(): void {
    this.#exited = true;
    for (const waiter of this.#waiting.values()) {
      waiter.resolve(
        errorResponse(
          waiter.id,
          ErrorCode.InternalError,
          `The live server ${this.command.join(" ")} exited`,
        ),
      );
    }
    this.#waiting.clear();
  }

  /** Sends a notification or an answer to one of the server's requests. */
  async notify(message: JsonRpcMessage): Promise<void> {
    if (this.#exited) return;
    await this.#writer.write(encoder.encode(JSON.stringify(message) + "\n"));
  }

  /** Sends a request and resolves with the server's answer (an error answer if it exits, or after `timeoutMs`). */
  async request(
    message: JsonRpcMessage & { id: JsonRpcId },
    timeoutMs = 60_000,
  ): Promise<JsonRpcMessage> {
    if (this.#exited) {
      return errorResponse(
        message.id,
        ErrorCode.InternalError,
        `The live server ${this.command.join(" ")} is not running`,
      );
    }
    let timer: ReturnType<typeof setTimeout> | undefined;
    const answered = new Promise<JsonRpcMessage>((resolve) => {
      this.#waiting.set(idKey(message.id), { id: message.id, resolve });
      timer = setTimeout(() => {
        this.#waiting.delete(idKey(message.id));
        resolve(
          errorResponse(
            message.id,
            ErrorCode.InternalError,
            `The live server did not answer ${message.method} within ${timeoutMs} ms`,
          ),
        );
      }, timeoutMs);
    });
    await this.#writer.write(encoder.encode(JSON.stringify(message) + "\n"));
    const answer = await answered;
    clearTimeout(timer);
    return answer;
  }

  /**
   * Ends the server: EOF on stdin, then SIGTERM if it outstays `graceMs`,
   * then SIGKILL; resolves with how it ended.
   */
  async stop(graceMs = DEFAULT_GRACE_MS): Promise<ChildOutcome> {
    const stopper = new ChildStopper(this.#child, graceMs);
    if (!this.#exited) {
      // A write the server never reads can hold the writer: close without waiting for it.
      void this.#writer.close().catch(() => {});
      stopper.inputEnded();
    }
    return await stopper.ended;
  }
}

/** The requests sent to a live server that wait for its answer, by id. */
export type Waiting = Map<string, { id: JsonRpcId; resolve: (message: JsonRpcMessage) => void }>;

/**
 * Hands a message from the live server to the request it answers, or, when
 * it answers none that waits (a notification, a request of the server's),
 * to `onOther`.
 */
export function routeAnswer(
  waiting: Waiting,
  message: JsonRpcMessage,
  onOther: (message: JsonRpcMessage) => void,
): void {
  const isAnswer = message.method === undefined && message.id !== undefined &&
    message.id !== null;
  const key = isAnswer ? idKey(message.id as JsonRpcId) : undefined;
  const waiter = key === undefined ? undefined : waiting.get(key);
  if (!waiter) return onOther(message);
  waiting.delete(key!);
  waiter.resolve(message);
}
