/**
 * Runs a {@linkcode VerifyPlan} against a live server: one server launch
 * per recorded session, each recorded request re-sent with the live
 * session's ids and its answer compared with the recorded one.
 *
 * @module
 */
import { hideSecrets, revealSecrets } from "../secrets/env.ts";
import type { Secret } from "../secrets/env.ts";
import { McpConnection } from "../client/connection.ts";
import type { ServerRequestAnswer } from "../client/connection.ts";
import { defaultServerRequestAnswer } from "../client/connection.ts";
import type { ClientTransport, IncomingFrame } from "../client/transport.ts";
import { isRawFrame } from "../client/transport.ts";
import type { StdioClientTransport } from "../client/stdio.ts";
import type { Entry } from "../cassette/format.ts";
import { CassetteError, ServerUnreachableError } from "../errors/errors.ts";
import type { Json, JsonRpcMessage } from "../jsonrpc/messages.ts";
import { compareAnswers, REGRESSION_KINDS } from "./compare.ts";
import type { Regression, RegressionKind } from "./compare.ts";
import type { IgnorePattern } from "./normalize.ts";
import { gradeExchanges } from "./grade.ts";
import type { Grade } from "./grade.ts";
import type { PlannedSession, RequestStep, VerifyPlan } from "./plan.ts";
import { splitIdentity } from "./identity.ts";

/** The outcome of one recorded exchange. */
export interface ExchangeResult {
  index: number;
  method: string;
  target?: string;
  session?: string;
  status: "pass" | "fail" | "skip";
  skipReason?: string;
  regressions: Regression[];
  /** Differences shown but not graded: the build's own version in its initialize answer. */
  info?: Regression[];
}

/** One path found to change between live runs of the same build. */
export interface NoisePath {
  /** The exchange (its index in the report). */
  index: number;
  method: string;
  target?: string;
  /** The response path, as `--ignore-path` takes it. */
  path: string;
}

/** Everything `verify` found. Holds no timings, so reruns compare equal. */
export interface VerifyReport {
  cassette: string;
  server: string;
  exchanges: ExchangeResult[];
  grade: Grade;
  /** Exchanges that failed. */
  failed: number;
  skipped: number;
  /** Paths whose live value moved between runs of the same build: noise, not graded (./noise.ts). */
  noise?: NoisePath[];
  /**
   * The exchanges (by index) whose recorded answers were rewritten with the
   * live ones in the cassette (`--update-failed`, or `--update` with `--only`).
   */
  rewritten?: number[];
  /** Exchanges failing with each kind (an exchange may count under several). */
  kinds: Record<RegressionKind, number>;
}

/** A live frame, for `--update`. */
export type LiveEntry = Entry;

/** Options for {@linkcode runVerify}. */
export interface RunOptions {
  cassettePath: string;
  serverName: string;
  /** Opens a fresh transport to the server (called once per recorded session). */
  open: () => ClientTransport;
  timeoutMs: number;
  ignore: readonly IgnorePattern[];
  allowReorder: boolean;
  /** Grade a changed `serverInfo.version` as a regression instead of information. */
  versionIsRegression?: boolean;
  /** Receives every live frame, for writing a fresh cassette. */
  onEntry?: (entry: LiveEntry) => void;
  /** `record --secret-env` values: put into what is sent, hidden again in what comes back. */
  secrets?: readonly Secret[];
  /** Receives each graded exchange's live answer (secrets hidden), for `--update-failed`. */
  onAnswer?: (index: number, answer: JsonRpcMessage) => void;
}

function stderrHint(transport: ClientTransport): string {
  const tail = (transport as Partial<StdioClientTransport>).stderrTail;
  const last = tail?.filter((line) => line.trim() !== "").at(-1);
  return last ? `; its last stderr line: ${last.trim().slice(0, 200)}` : "";
}

/** Answers server→client requests from the recording, in order per method. */
function answerFromRecording(session: PlannedSession) {
  const queues = new Map(
    [...session.serverAnswers].map(([method, answers]) => [method, [...answers]]),
  );
  return (request: JsonRpcMessage & { method: string }): ServerRequestAnswer =>
    queues.get(request.method)?.shift() ?? defaultServerRequestAnswer(request.method);
}

function observer(onEntry: RunOptions["onEntry"], session: string | undefined, start: number) {
  if (!onEntry) return undefined;
  return (dir: "c2s" | "s2c", frame: IncomingFrame) => {
    const t = Math.round(performance.now() - start);
    const base = session !== undefined ? { t, session } : { t };
    if (isRawFrame(frame)) onEntry({ type: "raw", ...base, dir, text: frame.raw });
    else onEntry({ type: "message", ...base, dir, msg: frame as Json });
  };
}

async function runStep(
  connection: McpConnection,
  step: RequestStep,
  options: RunOptions,
): Promise<{ found: Regression[]; live?: JsonRpcMessage }> {
  let live: JsonRpcMessage | undefined;
  let why = "no answer";
  try {
    const secrets = options.secrets ?? [];
    const params = revealSecrets(step.params as Json, secrets) as typeof step.params;
    const answer = await connection.call(step.method, params, { timeoutMs: options.timeoutMs });
    live = hideSecrets(answer as Json, secrets) as JsonRpcMessage;
  } catch (error) {
    if (!(error instanceof CassetteError)) throw error;
    why = error.message;
  }
  const found = compareAnswers(step.recorded!, live, {
    ignore: options.ignore,
    allowReorder: options.allowReorder,
  }, why);
  return { found, live };
}

async function runSession(
  session: PlannedSession,
  first: boolean,
  options: RunOptions,
  start: number,
): Promise<ExchangeResult[]> {
  const results: ExchangeResult[] = [];
  const transport = options.open();
  const connection = new McpConnection(transport, {
    onServerRequest: answerFromRecording(session),
    observe: observer(options.onEntry, session.session, start),
    timeoutMs: options.timeoutMs,
  });
  try {
    for (const step of session.steps) {
      if (step.kind === "notification") {
        // A cancellation names a recorded id that means nothing to the live server.
        if (step.message.method === "notifications/cancelled" || connection.isEnded) continue;
        await connection.sendRaw(step.message as unknown as Json).catch(() => {});
        continue;
      }
      const base = {
        index: step.index,
        method: step.method,
        ...(step.target !== undefined ? { target: step.target } : {}),
        ...(session.session !== undefined ? { session: session.session } : {}),
      };
      if (step.skip) {
        results.push({ ...base, status: "skip", skipReason: step.skip, regressions: [] });
        continue;
      }
      const { found, live } = await runStep(connection, step, options);
      const { regressions, info } = options.versionIsRegression
        ? { regressions: found, info: [] }
        : splitIdentity(step.method, found);
      if (first && connection.framesReceived === 0 && connection.isEnded) {
        // Not one frame before the end: the server never came up.
        await transport.closed; // rethrows a start failure as it is
        throw new ServerUnreachableError(
          `${transport.describe} exited without answering anything${stderrHint(transport)}`,
        );
      }
      const unreachable = regressions.find((r) =>
        r.kind === "missing-response" && /Cannot reach/.test(r.note ?? "")
      );
      if (first && connection.framesReceived === 0 && unreachable) {
        // An HTTP server that refuses the very first request is not a regression to grade.
        throw new ServerUnreachableError(unreachable.note!);
      }
      if (step.ungraded) {
        results.push({ ...base, status: "skip", skipReason: step.ungraded, regressions: [] });
        continue;
      }
      if (live) options.onAnswer?.(step.index, live);
      results.push({
        ...base,
        status: regressions.length === 0 ? "pass" : "fail",
        regressions,
        ...(info.length > 0 ? { info } : {}),
      });
    }
  } finally {
    await connection.close().catch(() => {});
  }
  return results;
}

/** Runs the plan and grades the result. */
export async function runVerify(plan: VerifyPlan, options: RunOptions): Promise<VerifyReport> {
  const exchanges: ExchangeResult[] = [];
  const start = performance.now();
  for (const [i, session] of plan.sessions.entries()) {
    exchanges.push(...await runSession(session, i === 0, options, start));
  }
  exchanges.sort((a, b) => a.index - b.index);
  return summarize(options.cassettePath, options.serverName, exchanges);
}

/** Builds the report around exchange results. */
export function summarize(
  cassette: string,
  server: string,
  exchanges: ExchangeResult[],
): VerifyReport {
  const compared = exchanges.filter((exchange) => exchange.status !== "skip");
  const kinds = Object.fromEntries(REGRESSION_KINDS.map((kind) => [
    kind,
    exchanges.filter((exchange) =>
      exchange.regressions.some((regression) => regression.kind === kind)
    ).length,
  ])) as Record<RegressionKind, number>;
  return {
    cassette,
    server,
    exchanges,
    grade: gradeExchanges(compared),
    failed: compared.filter((exchange) => exchange.status === "fail").length,
    skipped: exchanges.length - compared.length,
    kinds,
  };
}
