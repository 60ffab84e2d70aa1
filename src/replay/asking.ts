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

  async #await(
    answered: Promise<JsonRpcMessage | undefined>,
    method: string,
  ): Promise<JsonRpcMessage | undefined | "timeout"> {
    const timeoutMs = this.options.answerTimeoutMs ?? 10_000;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timedOut = new Promise<"timeout">((resolve) => {
      timer = setTimeout(() => resolve("timeout"), timeoutMs);
    });
    const answer = await Promise.race([answered, timedOut]);
    clearTimeout(timer);
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
