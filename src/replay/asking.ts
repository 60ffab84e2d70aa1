/**
 * The server's own requests replayed to the client (sampling, elicitation,
 * roots): asked again with fresh ids, their answers awaited and compared
 * with the recording.
 *
 * @module
 */
import { idKey } from "../jsonrpc/messages.ts";
import type { Json, JsonRpcMessage } from "../jsonrpc/messages.ts";
import { firstDifference } from "../json/values.ts";
import { stripVolatile } from "../match/fingerprint.ts";
import type { Step } from "./episodes.ts";
import type { ReplayOptions } from "./options.ts";
import type { Outlet } from "./outlet.ts";
import type { ReportSink } from "./source.ts";
import { withLiveId } from "./wire.ts";

type ServerRequest = Extract<Step, { kind: "server-request" }>;

interface PendingAnswer {
  method: string;
  resolve: (message: JsonRpcMessage | undefined) => void;
}

/** The server requests one session has asked and not yet had answered. */
export class ServerRequests {
  #pending = new Map<string, PendingAnswer>();
  #nextId = 1;
  #nextPing = 1;
  /** The client left a ping unanswered: {@linkcode settle} no longer pings. */
  #noPong = false;

  constructor(private readonly sink: ReportSink, private readonly options: ReplayOptions) {}

  /** Asks the client; resolves with a divergence message when its answer differs from the recording's. */
  async ask(step: ServerRequest, out: Outlet): Promise<string | undefined> {
    const method = step.msg.method ?? "";
    const id = this.#nextId++;
    const answered = new Promise<JsonRpcMessage | undefined>((resolve) => {
      this.#pending.set(idKey(id), { method, resolve });
    });
    const ready = withLiveId(step, id);
    await out.send(ready.message, step.sse, ready.text);
    const answer = await this.#await(answered, method);
    this.#pending.delete(idKey(id));
    if (answer === "timeout" || answer === undefined) return undefined;
    return this.#compare(step, answer, method);
  }

  /**
   * Pings the client and waits for its answer: a client that has answered
   * has run the handlers of everything sent before the ping (it answers a
   * request only after the notifications read ahead of it), so what is sent
   * next cannot overtake them. A client that does not answer within the
   * answer timeout is not pinged again: it is waited for once, not on every
   * request. Not a recorded request, so not in the report.
   */
  async settle(out: Outlet): Promise<void> {
    if (this.#noPong) return;
    const id = `mcp-cassette-settle-${this.#nextPing++}`;
    const answered = new Promise<JsonRpcMessage | undefined>((resolve) => {
      this.#pending.set(idKey(id), { method: "ping", resolve });
    });
    await out.send({ jsonrpc: "2.0", id, method: "ping" });
    const answer = await this.#within(answered);
    this.#pending.delete(idKey(id));
    if (answer !== "timeout") return;
    this.#noPong = true;
    this.options.log?.("the client never answered a ping: answers no longer wait for one");
  }

  /** Takes a client answer; false when it answers nothing that was asked. */
  answer(message: JsonRpcMessage): boolean {
    const pending = this.#pending.get(idKey(message.id));
    if (!pending) return false;
    pending.resolve(message);
    return true;
  }

  /** Stops waiting for every answer. */
  close(): void {
    for (const pending of this.#pending.values()) pending.resolve(undefined);
    this.#pending.clear();
  }

  /** The client's answer, or "timeout" after the answer timeout. */
  async #within(
    answered: Promise<JsonRpcMessage | undefined>,
  ): Promise<JsonRpcMessage | undefined | "timeout"> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timedOut = new Promise<"timeout">((resolve) => {
      timer = setTimeout(() => resolve("timeout"), this.#timeoutMs);
    });
    const answer = await Promise.race([answered, timedOut]);
    clearTimeout(timer);
    return answer;
  }

  get #timeoutMs(): number {
    return this.options.answerTimeoutMs ?? 10_000;
  }

  async #await(
    answered: Promise<JsonRpcMessage | undefined>,
    method: string,
  ): Promise<JsonRpcMessage | undefined | "timeout"> {
    const timeoutMs = this.#timeoutMs;
    const answer = await this.#within(answered);
    const { report } = this.sink;
    if (answer === "timeout") {
      report.timeouts.push(`the client never answered ${method} (waited ${timeoutMs} ms)`);
      report.serverInitiated.push({ method, delivered: true, outcome: "timeout" });
      this.options.log?.(`timeout: the client never answered ${method}`);
    } else if (answer === undefined) {
      report.serverInitiated.push({ method, delivered: true, outcome: "cancelled" });
    }
    return answer;
  }

  #compare(step: ServerRequest, answer: JsonRpcMessage, method: string): string | undefined {
    const { report } = this.sink;
    const difference = step.answer
      ? firstDifference(
        stripVolatile(comparable(step.answer.msg)),
        stripVolatile(comparable(answer)),
        "$",
      )
      : undefined;
    report.serverInitiated.push({
      method,
      delivered: true,
      outcome: difference ? "divergent" : "as-recorded",
    });
    if (!difference) return undefined;
    report.divergences.push({ method, ...difference });
    const text = `Client answered ${method} differently at ${difference.path}`;
    this.options.log?.(`divergent: ${text}`);
    return text;
  }
}

/** The part of a client answer compared with the recording. */
function comparable(message: JsonRpcMessage): Json {
  return ("error" in message
    ? { error: message.error }
    : { result: message.result ?? null }) as Json;
}
