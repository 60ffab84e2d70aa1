/**
 * Noise told from regressions: when the first run finds differences, the
 * same traffic is re-fired at the same build; a path whose live value
 * differs between two live runs (a nonce, a counter, a random order) is
 * noise, reported apart and never graded. A difference the same in every
 * run is graded as before.
 *
 * @module
 */
import { isDeepStrictEqual } from "node:util";
import type { Regression } from "./compare.ts";
import type { ExchangeResult, NoisePath } from "./run.ts";

/** Whether `regression`'s live value is not what the other run had at the same path. */
function movedBetweenRuns(regression: Regression, other: ExchangeResult | undefined): boolean {
  if (!other || other.status === "skip") return false;
  const same = other.regressions.find((candidate) => candidate.path === regression.path);
  // The other run matched the recording there: the live value moved.
  if (!same) return true;
  return same.kind === regression.kind && !isDeepStrictEqual(same.after, regression.after);
}

/**
 * Takes from `first`'s exchanges every regression whose value moved in any
 * of the `others` runs; an exchange left with none passes. Returns the
 * exchanges and the noise found.
 */
export function separateNoise(
  first: readonly ExchangeResult[],
  others: readonly (readonly ExchangeResult[])[],
): { exchanges: ExchangeResult[]; noise: NoisePath[] } {
  const noise: NoisePath[] = [];
  const exchanges = first.map((exchange) => {
    if (exchange.status !== "fail") return exchange;
    const twins = others.map((run) => run.find((other) => other.index === exchange.index));
    const kept: Regression[] = [];
    for (const regression of exchange.regressions) {
      if (twins.some((twin) => movedBetweenRuns(regression, twin))) {
        noise.push({
          index: exchange.index,
          method: exchange.method,
          ...(exchange.target !== undefined ? { target: exchange.target } : {}),
          path: regression.path.replace(/^\$\./, ""),
        });
      } else kept.push(regression);
    }
    if (kept.length === exchange.regressions.length) return exchange;
    return { ...exchange, regressions: kept, status: kept.length > 0 ? "fail" : "pass" } as const;
  });
  return { exchanges, noise };
}
