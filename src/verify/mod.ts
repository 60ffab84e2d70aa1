/**
 * `verify`: re-send a cassette's client traffic to a live server, compare
 * every answer with the recording, grade the result.
 *
 * @example
 * ```ts
 * import { verifyCassette, formatText } from "./mod.ts";
 * const report = await verifyCassette({
 *   cassette: "session.cassette.jsonl",
 *   target: { kind: "stdio", command: ["node", "server.js"] },
 * });
 * console.log(formatText(report));
 * ```
 *
 * @module
 */
import { hideSecrets, readSecrets } from "../secrets/env.ts";
import type { Secret } from "../secrets/env.ts";
import { describeTarget, openTransport } from "../client/target.ts";
import type { ServerTarget } from "../client/target.ts";
import { DEFAULT_REQUEST_TIMEOUT_MS } from "../client/connection.ts";
import { planFile } from "./plan.ts";
import type { VerifyPlan } from "./plan.ts";
import { compileIgnorePaths } from "./normalize.ts";
import { runVerify } from "./run.ts";
import type { RunOptions, VerifyReport } from "./run.ts";
import { summarize } from "./run.ts";
import { separateNoise } from "./noise.ts";
import { LiveCassette } from "./update.ts";
import { chooseOnly, parseOnly } from "./only.ts";
import { AnswerRewriter, headerRedactor } from "./rewrite.ts";
import type { RewriteRedactor } from "./rewrite.ts";
import { UsageError } from "../errors/errors.ts";

export * from "./plan.ts";
export * from "./normalize.ts";
export * from "./compare.ts";
export * from "./grade.ts";
export * from "./run.ts";
export * from "./report.ts";
export * from "./update.ts";
export * from "./identity.ts";
export * from "./only.ts";
export * from "./rewrite.ts";

/** Options for {@linkcode verifyCassette}. */
export interface VerifyOptions {
  cassette: string;
  target: ServerTarget;
  timeoutMs?: number;
  ignorePaths?: string[];
  allowReorder?: boolean;
  allowDestructive?: boolean;
  /** Grade a changed `serverInfo.version` as a regression (by default it is information). */
  versionIsRegression?: boolean;
  /** Write the live session as the new cassette at this path. */
  updatePath?: string;
  /** Name of the server in reports (default: its command line or URL). */
  serverName?: string;
  /**
   * How many live runs tell noise from regressions (default 2): when the
   * first finds differences, the traffic is re-fired N-1 more times, and a
   * path whose value moves between runs is noise, not graded. 1 turns it off.
   */
  noiseRuns?: number;
  /** Cuts the plan down before anything is sent (`--script`). */
  choose?: (plan: VerifyPlan) => VerifyPlan;
  /**
   * `--update-failed`: in the cassette itself, replace the recorded answers
   * of the exchanges that failed (noise is not failing) with the new build's,
   * every other line kept byte for byte. A run where nothing failed is a
   * UsageError and writes nothing.
   */
  updateFailed?: boolean;
  /**
   * `tool=NAME` / `method=NAME` (any of them): only these exchanges are
   * re-sent and graded; with `updatePath` only their answers are rewritten,
   * in place, the rest of the cassette kept byte for byte.
   */
  only?: string[];
  /**
   * The redaction what `updateFailed` or `updatePath` writes goes through
   * (default: the cassette's own, rebuilt from its header with
   * `MCP_CASSETTE_REDACT_KEY`; see ./rewrite.ts).
   */
  rewriteRedactor?: RewriteRedactor;
}

/** Loads, plans, runs and grades; optionally writes the fresh cassette. */
export async function verifyCassette(options: VerifyOptions): Promise<VerifyReport> {
  const filters = parseOnly(options.only ?? []);
  if (options.updateFailed && options.updatePath !== undefined) {
    throw new UsageError("--update-failed rewrites what failed, --update all: give one of them");
  }
  // Streamed: the plan keeps the client's requests and their answers, not the file.
  const built = await planFile(options.cassette, { allowDestructive: options.allowDestructive });
  const plan = chooseOnly(
    options.choose ? options.choose(built) : built,
    filters,
    options.cassette,
  );
  const why = `${options.cassette} was recorded with --secret-env`;
  // Before anything is written: a name that is not set stops here.
  const secrets = readSecrets(plan.secretEnv ?? [], why);
  const { rewriter, live } = await openWriters(options, plan, filters.length > 0, secrets);
  let report: VerifyReport;
  try {
    const runOptions: RunOptions = {
      cassettePath: options.cassette,
      serverName: options.serverName ?? describeTarget(options.target),
      open: () => openTransport(options.target),
      timeoutMs: options.timeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS,
      ignore: compileIgnorePaths(options.ignorePaths ?? []),
      allowReorder: options.allowReorder ?? false,
      versionIsRegression: options.versionIsRegression ?? false,
      // The fresh cassette holds the placeholders, never the values.
      onEntry: live
        ? (entry) =>
          live.append(
            entry.type === "message" ? { ...entry, msg: hideSecrets(entry.msg, secrets) } : entry,
          )
        : undefined,
      secrets,
      onAnswer: rewriter ? (index, answer) => rewriter.keep(index, answer) : undefined,
    };
    report = await runVerify(plan, runOptions);
    report = await withNoise(report, plan, runOptions, options.noiseRuns ?? 2);
  } catch (error) {
    await live?.abandon();
    throw error;
  }
  await live?.close();
  return rewriter ? await rewriteAnswers(report, rewriter, options.updateFailed === true) : report;
}

/**
 * What the run writes: the answers rewritten in place (`updateFailed`, or
 * `updatePath` with `only`), or a fresh cassette written as the frames come
 * (`updatePath`). Either goes through the recording's own redaction.
 */
async function openWriters(
  options: VerifyOptions,
  plan: VerifyPlan,
  filtered: boolean,
  secrets: readonly Secret[],
): Promise<{ rewriter?: AnswerRewriter; live?: LiveCassette }> {
  if (options.updatePath === undefined && !options.updateFailed) return {};
  const redactor = () =>
    plan.header
      ? (options.rewriteRedactor ?? ((header) => headerRedactor(header, options.cassette)))(
        plan.header,
      )
      : Promise.resolve(undefined);
  if (options.updateFailed || filtered) {
    const target = options.updatePath ?? options.cassette;
    return { rewriter: await AnswerRewriter.prepare(options.cassette, target, plan, redactor) };
  }
  return {
    live: await LiveCassette.open(options.updatePath!, options.target, await redactor(), secrets),
  };
}

/**
 * Writes the live answers of what failed (`failedOnly`) or of every graded
 * exchange into the cassette; a run where nothing failed is refused.
 */
async function rewriteAnswers(
  report: VerifyReport,
  rewriter: AnswerRewriter,
  failedOnly: boolean,
): Promise<VerifyReport> {
  const chosen = report.exchanges.filter((exchange) =>
    failedOnly ? exchange.status === "fail" : exchange.status !== "skip"
  );
  if (failedOnly && chosen.length === 0) {
    const compared = report.exchanges.length - report.skipped;
    throw new UsageError(
      `--update-failed: nothing failed in ${report.cassette} (${compared} exchange(s) compared), nothing written`,
    );
  }
  return { ...report, rewritten: await rewriter.write(chosen) };
}

/**
 * Re-fires the traffic when the first run found differences, and takes the
 * paths that moved between live runs out of the grade (`report.noise`).
 * Nothing is written by the later runs.
 */
async function withNoise(
  first: VerifyReport,
  plan: VerifyPlan,
  options: RunOptions,
  runs: number,
): Promise<VerifyReport> {
  if (runs < 2 || first.failed === 0) return first;
  const others = [];
  for (let run = 1; run < runs; run++) {
    const again = { ...options, onEntry: undefined, onAnswer: undefined };
    others.push((await runVerify(plan, again)).exchanges);
  }
  const { exchanges, noise } = separateNoise(first.exchanges, others);
  if (noise.length === 0) return first;
  return { ...summarize(first.cassette, first.server, exchanges), noise };
}
