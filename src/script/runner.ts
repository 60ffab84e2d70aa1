/**
 * Runs a playbook over a connection: the handshake with the playbook's
 * client and capabilities, then each step in order. A step that fails
 * (an error answer, a tool result with `isError`, no answer in time) is
 * noted and the run goes on, unless told to stop there; a server that went
 * away ends it.
 *
 * @module
 */
import { McpConnection, RpcError } from "../client/connection.ts";
import type { ConnectionOptions } from "../client/connection.ts";
import { initialize, MAX_PAGES } from "../client/session.ts";
import type { HandshakeOptions, ServerHello } from "../client/session.ts";
import type { ClientTransport } from "../client/transport.ts";
import { describeError } from "../errors/errors.ts";
import type { Json, JsonObject, JsonRpcMessage } from "../jsonrpc/messages.ts";
import { answerServerRequests } from "./answers.ts";
import type { Playbook } from "./playbook.ts";
import type { PlaybookStep, RequestStep } from "./steps.ts";
import { sleep } from "../util/helpers.ts";

/** How one step went. */
export interface StepOutcome {
  /** 1-based, as reports and docs count them. */
  number: number;
  label: string;
  status: "ok" | "failed" | "not run";
  /** Why it failed (or why it did not run). */
  detail?: string;
}

/** How the whole playbook went. */
export interface ScriptOutcome {
  hello: ServerHello;
  steps: StepOutcome[];
  failed: number;
}

/** Options of {@linkcode runPlaybook}. */
export interface RunPlaybookOptions {
  timeoutMs?: number;
  /** Stop at the first failed step (`--stop-on-error`). */
  stopOnError?: boolean;
  /** Told of each step as it ends. */
  onStep?: (outcome: StepOutcome) => void;
}

/** The connection options a playbook's client needs: its answers to the server's requests. */
export function playbookConnectionOptions(
  playbook: Playbook,
  timeoutMs?: number,
): ConnectionOptions {
  return { onServerRequest: answerServerRequests(playbook.answers), timeoutMs };
}

/** Opens a connection over `transport` that answers as the playbook says. */
export function playbookConnection(
  transport: ClientTransport,
  playbook: Playbook,
  timeoutMs?: number,
): McpConnection {
  return new McpConnection(transport, playbookConnectionOptions(playbook, timeoutMs));
}

/** The first text of a tool result, to say why it failed. */
function resultText(result: Json | undefined): string {
  if (result === null || typeof result !== "object" || Array.isArray(result)) return "";
  const content = Array.isArray(result.content) ? result.content : [];
  const first = content.find((item) =>
    item !== null && typeof item === "object" && !Array.isArray(item) &&
    typeof item.text === "string"
  ) as JsonObject | undefined;
  return first ? `: ${String(first.text).slice(0, 200)}` : "";
}

/** Why an answer counts as a failure, or undefined when it does not. */
function failureOf(step: RequestStep, answer: JsonRpcMessage): string | undefined {
  if (answer.error) {
    return `${step.method} failed: ${answer.error.message} (${answer.error.code})`;
  }
  const result = answer.result;
  if (
    step.method === "tools/call" && result !== null && typeof result === "object" &&
    !Array.isArray(result) && result.isError === true
  ) return `the tool reported an error${resultText(result)}`;
  return undefined;
}

/** Sends a request step (every page of a list); the last answer decides. */
async function sendRequest(
  connection: McpConnection,
  step: RequestStep,
  timeoutMs: number | undefined,
): Promise<string | undefined> {
  const options = { timeoutMs: step.timeoutMs ?? timeoutMs };
  // Sent without params when there are none, as the SDK clients send lists and ping.
  let answer = await connection.call(step.method, step.params, options);
  const seen = new Set<string>();
  for (let page = 1; step.pages && !answer.error && page < MAX_PAGES; page++) {
    const result = answer.result as JsonObject | undefined;
    const next = result?.nextCursor;
    if (typeof next !== "string" || next === "" || seen.has(next)) break;
    seen.add(next);
    answer = await connection.call(step.method, { ...step.params, cursor: next }, options);
  }
  const failure = failureOf(step, answer);
  if (step.expectError) return failure ? undefined : "an error was expected, the server answered";
  return failure;
}

async function runStep(
  connection: McpConnection,
  step: PlaybookStep,
  timeoutMs: number | undefined,
): Promise<string | undefined> {
  if (step.kind === "wait") {
    await sleep(step.ms);
    return undefined;
  }
  if (step.kind === "notify") {
    await connection.notify(step.method, step.params);
    return undefined;
  }
  return await sendRequest(connection, step, timeoutMs);
}

/** The handshake the playbook's client makes. */
export function playbookHandshake(playbook: Playbook): HandshakeOptions {
  return {
    capabilities: playbook.capabilities,
    clientInfo: playbook.client,
    ...(playbook.protocolVersion ? { protocolVersion: playbook.protocolVersion } : {}),
  };
}

/** Runs the steps, in order, over a connection whose handshake is done. */
export async function runSteps(
  connection: McpConnection,
  playbook: Playbook,
  options: RunPlaybookOptions = {},
): Promise<StepOutcome[]> {
  const steps: StepOutcome[] = [];
  let stopped: string | undefined;
  for (const [index, step] of playbook.steps.entries()) {
    const outcome: StepOutcome = { number: index + 1, label: step.label, status: "ok" };
    if (stopped !== undefined) {
      Object.assign(outcome, { status: "not run", detail: stopped });
    } else {
      try {
        const failure = await runStep(connection, step, options.timeoutMs);
        if (failure !== undefined) Object.assign(outcome, { status: "failed", detail: failure });
      } catch (error) {
        const detail = error instanceof RpcError ? error.message : describeError(error);
        Object.assign(outcome, { status: "failed", detail });
      }
      if (outcome.status === "failed") {
        if (connection.isEnded) stopped = "the server went away";
        else if (options.stopOnError) stopped = `stopped after step ${outcome.number} failed`;
      }
    }
    steps.push(outcome);
    options.onStep?.(outcome);
  }
  return steps;
}

/**
 * Runs the handshake and the steps. The handshake failing throws (as for
 * `check`: the server is unreachable); a step failing does not.
 */
export async function runPlaybook(
  connection: McpConnection,
  playbook: Playbook,
  options: RunPlaybookOptions = {},
): Promise<ScriptOutcome> {
  const hello = await initialize(connection, {
    timeoutMs: options.timeoutMs,
    ...playbookHandshake(playbook),
  });
  const steps = await runSteps(connection, playbook, options);
  return { hello, steps, failed: steps.filter((step) => step.status === "failed").length };
}

/** One line per step, for the console. */
export function formatStep(outcome: StepOutcome): string {
  const detail = outcome.detail ? `: ${outcome.detail}` : "";
  return `step ${outcome.number} ${outcome.label}: ${outcome.status}${detail}`;
}
