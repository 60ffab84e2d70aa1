/**
 * The end-of-session verdict the library gives: misses fail, an inexact
 * answer fails unless leniency was asked for, unplayed recordings fail when
 * asked to.
 *
 * @module
 */
import { CassetteError, ReplayMissError } from "../errors/errors.ts";
import type { MissReport } from "../errors/errors.ts";
import type { MatchMode } from "../replay/options.ts";

/** What a helper's result holds of a replay's report. */
export interface Verdict {
  misses: MissReport[];
  inexact: string[];
  unplayed: string[];
}

/**
 * Throws {@linkcode ReplayMissError} for misses, for inexact answers when
 * `match` is `exact` (the default), or for unplayed recordings when
 * `failOnUnplayed`.
 */
export function checkReport(
  verdict: Verdict,
  options: { match?: MatchMode; failOnUnplayed?: boolean } = {},
): void {
  const doubtful: MissReport[] = [...verdict.misses];
  if ((options.match ?? "exact") === "exact") {
    for (const text of verdict.inexact) {
      doubtful.push({ method: text.split(" ")[0], message: `inexact answer: ${text}` });
    }
  }
  if (doubtful.length > 0) throw new ReplayMissError(doubtful, verdict.unplayed);
  if (options.failOnUnplayed && verdict.unplayed.length > 0) {
    throw new ReplayMissError([], verdict.unplayed);
  }
}

/** Throws the first launch failure (a recording that was not kept, say) as the launch's own error. */
export function checkLaunches(
  result: { launches: { code?: number; error?: string }[] },
): void {
  const failed = result.launches.find((launch) => launch.error !== undefined);
  if (!failed) return;
  const error = new CassetteError(failed.error!);
  if (failed.code !== undefined) error.exitCode = failed.code;
  throw error;
}
