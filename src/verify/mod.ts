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

export * from "./plan.ts";
export * from "./normalize.ts";
export * from "./compare.ts";
export * from "./grade.ts";
export * from "./run.ts";
export * from "./report.ts";
export * from "./update.ts";
export * from "./identity.ts";

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
}

/** Loads, plans, runs and grades; optionally writes the fresh cassette. */
export async function verifyCassette(options: VerifyOptions): Promise<VerifyReport> {
  // Streamed: the plan keeps the client's requests and their answers, not the file.
  const built = await planFile(options.cassette, { allowDestructive: options.allowDestructive });
  const plan = options.choose ? options.choose(built) : built;
  const why = `${options.cassette} was recorded with --secret-env`;
  // Before anything is written: a name that is not set stops here.
  const secrets = readSecrets(plan.secretEnv ?? [], why);
  // --update writes the live frames as they come, aside until the run is over.
  const live = options.updatePath !== undefined
    ? await LiveCassette.open(options.updatePath, options.target, secrets)
    : undefined;
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
    };
    report = await runVerify(plan, runOptions);
    report = await withNoise(report, plan, runOptions, options.noiseRuns ?? 2);
  } catch (error) {
    await live?.abandon();
    throw error;
  }
  await live?.close();
  return report;
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
    others.push((await runVerify(plan, { ...options, onEntry: undefined })).exchanges);
  }
  const { exchanges, noise } = separateNoise(first.exchanges, others);
  if (noise.length === 0) return first;
  return { ...summarize(first.cassette, first.server, exchanges), noise };
}
