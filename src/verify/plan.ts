/**
 * Turns a cassette into what `verify` re-sends: per recorded session, the
 * client's requests (each with its recorded answer) and notifications in
 * order, and the client's recorded answers to server→client requests,
 * queued by method.
 *
 * @module
 */
import { feedCassette, feedCassetteFile } from "../cassette/entries.ts";
import type { CassetteSink, CassetteStart } from "../cassette/entries.ts";
import type { Cassette, LocatedEntry } from "../cassette/reader.ts";
import type { CassetteHeader } from "../cassette/format.ts";
import { CassetteError } from "../errors/errors.ts";
import { classify, idKey } from "../jsonrpc/messages.ts";
import type { Json, JsonObject, JsonRpcId, JsonRpcMessage } from "../jsonrpc/messages.ts";
import type { ServerRequestAnswer } from "../client/connection.ts";
import { isObject } from "../util/helpers.ts";

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
  /** Sent but not graded, and why (the handshake under `--only`). */
  ungraded?: string;
  /** The cassette line of the recorded answer (what `--update-failed` rewrites). */
  recordedLine?: number;
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
  /** `record --secret-env` names: their placeholders get the real values back when sent. */
  secretEnv?: string[];
  /** The cassette's header (its redaction is what a rewritten answer goes through). */
  header?: CassetteHeader;
  /** Set when the file was converted from another tool's format: its lines are not ours to rewrite. */
  importedFrom?: string;
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

/** The names of tools a recorded tools/list result marks destructive. */
function destructiveToolsIn(msg: unknown, names: Set<string>): void {
  if (!isObject(msg)) return;
  const result = msg.result;
  if (!isObject(result) || !Array.isArray(result.tools)) return;
  for (const tool of result.tools) {
    if (
      isObject(tool) && typeof tool.name === "string" && isObject(tool.annotations) &&
      tool.annotations.destructiveHint === true
    ) names.add(tool.name);
  }
}

/**
 * Builds the plan entry by entry (a {@linkcode CassetteSink}): what it keeps
 * is the plan itself (client requests and notifications with their recorded
 * answers, the client's answers to server requests) and the requests in flight.
 */
export class PlanBuilder implements CassetteSink {
  private path = "";
  private readonly destructiveTools = new Set<string>();
  private readonly sessions = new Map<string, PlannedSession>();
  // Keyed by session + id; a later request may reuse an id once answered.
  private readonly openClientRequests = new Map<string, RequestStep>();
  private readonly openServerRequests = new Map<string, string>();
  private index = 0;
  private secretEnv: string[] | undefined;
  private header: CassetteHeader | undefined;
  private importedFrom: string | undefined;

  constructor(private readonly options: PlanOptions = {}) {}

  /** The header. */
  start(start: CassetteStart): void {
    this.path = start.path;
    this.secretEnv = start.header.redaction?.secretEnv;
    this.header = start.header;
    this.importedFrom = start.importedFrom;
  }

  /** A torn last line holds nothing to send. */
  torn(): void {}

  private sessionOf(name: string | undefined): PlannedSession {
    const key = name ?? "";
    let session = this.sessions.get(key);
    if (!session) {
      session = {
        ...(name !== undefined ? { session: name } : {}),
        steps: [],
        serverAnswers: new Map(),
      };
      this.sessions.set(key, session);
    }
    return session;
  }

  /** One entry. */
  entry(entry: LocatedEntry): void {
    if (entry.type !== "message" || Array.isArray(entry.msg) || !isObject(entry.msg)) return;
    const message = entry.msg as JsonRpcMessage;
    const session = this.sessionOf(entry.session);
    const kind = classify(message);
    const key = `${entry.session ?? ""}\u0000${idKey(message.id)}`;
    if (entry.dir === "s2c") destructiveToolsIn(message, this.destructiveTools);
    if (entry.dir === "c2s") {
      if (kind === "request") {
        const step = requestStep(message, ++this.index);
        this.openClientRequests.set(key, step);
        session.steps.push(step);
      } else if (kind === "notification") {
        session.steps.push({
          kind: "notification",
          message: message as JsonRpcMessage & { method: string },
        });
      } else if (kind === "response" || kind === "error") {
        const method = this.openServerRequests.get(key);
        if (method === undefined) return;
        this.openServerRequests.delete(key);
        queueServerAnswer(session, method, message);
      }
    } else if (kind === "response" || kind === "error") {
      const step = this.openClientRequests.get(key);
      if (!step) return;
      this.openClientRequests.delete(key);
      step.recorded = message;
      step.recordedLine = entry.line;
    } else if (kind === "request") {
      this.openServerRequests.set(key, message.method!);
    }
  }

  /** The plan; a cassette without client requests is refused. */
  finish(): VerifyPlan {
    for (const session of this.sessions.values()) {
      // Destructive tools are known only once every tools/list is in.
      if (!this.options.allowDestructive) markDestructive(session, this.destructiveTools);
      markUnanswered(session);
    }
    if (this.index === 0) {
      throw new CassetteError(`${this.path}: the cassette holds no client requests to re-send`);
    }
    return {
      sessions: [...this.sessions.values()].filter((session) => session.steps.length > 0),
      destructiveTools: this.destructiveTools,
      requestCount: this.index,
      ...(this.secretEnv?.length ? { secretEnv: this.secretEnv } : {}),
      ...(this.header ? { header: this.header } : {}),
      ...(this.importedFrom !== undefined ? { importedFrom: this.importedFrom } : {}),
    };
  }
}

/** Reads the plan out of a loaded cassette; a cassette without client requests is refused. */
export function buildPlan(cassette: Cassette, options: PlanOptions = {}): VerifyPlan {
  const builder = new PlanBuilder(options);
  feedCassette(cassette, builder);
  return builder.finish();
}

/** Reads the plan out of the cassette at `path`, streaming it (the entries are not kept). */
export async function planFile(path: string, options: PlanOptions = {}): Promise<VerifyPlan> {
  const builder = new PlanBuilder(options);
  await feedCassetteFile(path, builder);
  return builder.finish();
}

/** A tools/call of a tool marked destructive is skipped. */
function markDestructive(session: PlannedSession, destructiveTools: Set<string>): void {
  for (const step of session.steps) {
    if (
      step.kind === "request" && step.method === "tools/call" && step.target !== undefined &&
      destructiveTools.has(step.target)
    ) step.skip = "destructive tool (use --allow-destructive)";
  }
}

/** The step for a recorded client request. */
function requestStep(message: JsonRpcMessage, index: number): RequestStep {
  const method = message.method!;
  const step: RequestStep = { kind: "request", index, method, recordedId: message.id as JsonRpcId };
  if (message.params !== undefined) step.params = message.params;
  const target = requestTarget(method, message.params);
  if (target !== undefined) step.target = target;
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
