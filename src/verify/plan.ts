/**
 * Turns a cassette into what `verify` re-sends: per recorded session, the
 * client's requests (each with its recorded answer) and notifications in
 * order, and the client's recorded answers to server→client requests,
 * queued by method.
 *
 * @module
 */
import type { Cassette } from "../cassette/reader.ts";
import { CassetteError } from "../errors.ts";
import { classify, idKey } from "../jsonrpc.ts";
import type { Json, JsonObject, JsonRpcId, JsonRpcMessage } from "../jsonrpc.ts";
import type { ServerRequestAnswer } from "../client/connection.ts";
import { isObject } from "../util.ts";

/** A recorded client request and its recorded answer. */
export interface RequestStep {
  kind: "request";
  /** 1-based number of the exchange across the whole cassette. */
  index: number;
  method: string;
  params?: JsonObject | Json[];
  recordedId: JsonRpcId;
  /** The recorded response (result or error), if the recording has one. */
  recorded?: JsonRpcMessage;
  /** For tools/call, prompts/get, resources/read: the name or URI. */
  target?: string;
  /** Why it will not be sent, when it will not. */
  skip?: string;
}

/** A recorded client notification, re-sent as is. */
export interface NotificationStep {
  kind: "notification";
  message: JsonRpcMessage & { method: string };
}

/** One step of a session. */
export type Step = RequestStep | NotificationStep;

/** The steps of one recorded client session (one server launch). */
export interface PlannedSession {
  /** The cassette's session name, if it had one. */
  session?: string;
  steps: Step[];
  /** Recorded client answers to server→client requests, by method, in order. */
  serverAnswers: Map<string, ServerRequestAnswer[]>;
}

/** Everything `verify` will do. */
export interface VerifyPlan {
  sessions: PlannedSession[];
  /** Tools the recorded tools/list marked `destructiveHint: true`. */
  destructiveTools: Set<string>;
  /** Number of request steps. */
  requestCount: number;
}

/** Options for {@linkcode buildPlan}. */
export interface PlanOptions {
  allowDestructive?: boolean;
}

/** The name a request acts on, for reports and for destructive skipping. */
export function requestTarget(method: string, params: unknown): string | undefined {
  if (!isObject(params)) return undefined;
  if ((method === "tools/call" || method === "prompts/get") && typeof params.name === "string") {
    return params.name;
  }
  if (
    (method === "resources/read" || method.startsWith("resources/")) &&
    typeof params.uri === "string"
  ) return params.uri;
  return undefined;
}

/** Tools marked destructive in any recorded tools/list result. */
function destructiveToolsOf(cassette: Cassette): Set<string> {
  const names = new Set<string>();
  for (const entry of cassette.entries) {
    if (entry.type !== "message" || entry.dir !== "s2c" || !isObject(entry.msg)) continue;
    const result = entry.msg.result;
    if (!isObject(result) || !Array.isArray(result.tools)) continue;
    for (const tool of result.tools) {
      if (
        isObject(tool) && typeof tool.name === "string" && isObject(tool.annotations) &&
        tool.annotations.destructiveHint === true
      ) names.add(tool.name);
    }
  }
  return names;
}

/** Reads the plan out of a cassette; a cassette without client requests is refused. */
export function buildPlan(cassette: Cassette, options: PlanOptions = {}): VerifyPlan {
  const destructiveTools = destructiveToolsOf(cassette);
  const sessions = new Map<string, PlannedSession>();
  // Keyed by session + id; a later request may reuse an id once answered.
  const openClientRequests = new Map<string, RequestStep>();
  const openServerRequests = new Map<string, string>();
  let index = 0;
  const sessionOf = (name: string | undefined) => {
    const key = name ?? "";
    let session = sessions.get(key);
    if (!session) {
      session = {
        ...(name !== undefined ? { session: name } : {}),
        steps: [],
        serverAnswers: new Map(),
      };
      sessions.set(key, session);
    }
    return session;
  };
  for (const entry of cassette.entries) {
    if (entry.type !== "message" || Array.isArray(entry.msg) || !isObject(entry.msg)) continue;
    const message = entry.msg as JsonRpcMessage;
    const session = sessionOf(entry.session);
    const kind = classify(message);
    const key = `${entry.session ?? ""}\u0000${idKey(message.id)}`;
    if (entry.dir === "c2s") {
      if (kind === "request") {
        const step = requestStep(message, ++index, destructiveTools, options);
        openClientRequests.set(key, step);
        session.steps.push(step);
      } else if (kind === "notification") {
        session.steps.push({
          kind: "notification",
          message: message as JsonRpcMessage & { method: string },
        });
      } else if (kind === "response" || kind === "error") {
        const method = openServerRequests.get(key);
        if (method === undefined) continue;
        openServerRequests.delete(key);
        queueServerAnswer(session, method, message);
      }
    } else if (kind === "response" || kind === "error") {
      const step = openClientRequests.get(key);
      if (!step) continue;
      openClientRequests.delete(key);
      step.recorded = message;
    } else if (kind === "request") {
      openServerRequests.set(key, message.method!);
    }
  }
  for (const session of sessions.values()) markUnanswered(session);
  if (index === 0) {
    throw new CassetteError(`${cassette.path}: the cassette holds no client requests to re-send`);
  }
  return {
    sessions: [...sessions.values()].filter((session) => session.steps.length > 0),
    destructiveTools,
    requestCount: index,
  };
}

/** The step for a recorded client request; a destructive tool call is skipped unless allowed. */
function requestStep(
  message: JsonRpcMessage,
  index: number,
  destructiveTools: Set<string>,
  options: PlanOptions,
): RequestStep {
  const method = message.method!;
  const step: RequestStep = { kind: "request", index, method, recordedId: message.id as JsonRpcId };
  if (message.params !== undefined) step.params = message.params;
  const target = requestTarget(method, message.params);
  if (target !== undefined) step.target = target;
  if (
    method === "tools/call" && target !== undefined && destructiveTools.has(target) &&
    !options.allowDestructive
  ) {
    step.skip = "destructive tool (use --allow-destructive)";
  }
  return step;
}

/** Queues the client's recorded answer to a server→client request, by the request's method. */
function queueServerAnswer(session: PlannedSession, method: string, message: JsonRpcMessage): void {
  const answer: ServerRequestAnswer = classify(message) === "response"
    ? { result: message.result ?? null }
    : { error: message.error! };
  const queue = session.serverAnswers.get(method) ?? [];
  queue.push(answer);
  session.serverAnswers.set(method, queue);
}

/** A request the recording never answered cannot be compared, so it is not sent. */
function markUnanswered(session: PlannedSession): void {
  for (const step of session.steps) {
    if (step.kind === "request" && !step.recorded && !step.skip) step.skip = "no recorded answer";
  }
}
