/**
 * The verify grade: a 0–100 score over four weighted dimensions, mapped to
 * a letter. A missing response caps the letter at D: a server that stops
 * answering is not "mostly stable".
 *
 * @module
 */
import type { Regression } from "./compare.ts";

/** Letters from best to worst. */
export const GRADE_LETTERS = ["A", "B", "C", "D", "F"] as const;

/** A grade letter. */
export type GradeLetter = typeof GRADE_LETTERS[number];

/** The weights of the dimensions (they sum to 100). */
export const GRADE_WEIGHTS = {
  responsiveness: 25,
  matchRate: 45,
  errorParity: 20,
  structuralStability: 10,
} as const;

/** What one compared exchange contributes to the grade. */
export interface GradedExchange {
  regressions: readonly Regression[];
}

/** A computed grade. */
export interface Grade {
  /** 0–100, one decimal. */
  score: number;
  letter: GradeLetter;
  /** True when a missing response capped the letter at D. */
  capped: boolean;
  /** Each dimension as a fraction 0–1 of the compared exchanges. */
  dimensions: Record<keyof typeof GRADE_WEIGHTS, number>;
  /** Exchanges graded (skipped ones are not). */
  graded: number;
}

/** The letter of a score, before any cap. */
export function letterOf(score: number): GradeLetter {
  if (score >= 90) return "A";
  if (score >= 80) return "B";
  if (score >= 70) return "C";
  if (score >= 60) return "D";
  return "F";
}

/** True when `letter` is at least as good as `floor`. */
export function meetsGrade(letter: GradeLetter, floor: GradeLetter): boolean {
  return GRADE_LETTERS.indexOf(letter) <= GRADE_LETTERS.indexOf(floor);
}

/**
 * Grades compared exchanges. An exchange counts towards a dimension when:
 * responsiveness — it got an answer; match rate — no regression at all;
 * error parity — answered and no error-status change; structural
 * stability — answered and no structure change. With nothing to grade the
 * score is 100.
 *
 * @example
 * ```ts
 * gradeExchanges([{ regressions: [] }, { regressions: [{ kind: "value-change", path: "$.result.n" }] }]);
 * // score 77.5 (25 + 45 × ½ + 20 + 10), letter C
 * ```
 */
export function gradeExchanges(exchanges: readonly GradedExchange[]): Grade {
  const total = exchanges.length;
  const share = (test: (exchange: GradedExchange) => boolean) =>
    total === 0 ? 1 : exchanges.filter(test).length / total;
  const has = (exchange: GradedExchange, kind: Regression["kind"]) =>
    exchange.regressions.some((regression) => regression.kind === kind);
  const dimensions = {
    responsiveness: share((exchange) => !has(exchange, "missing-response")),
    matchRate: share((exchange) => exchange.regressions.length === 0),
    errorParity: share((exchange) =>
      !has(exchange, "missing-response") && !has(exchange, "error-status-change")
    ),
    structuralStability: share((exchange) =>
      !has(exchange, "missing-response") && !has(exchange, "structure-change")
    ),
  };
  const raw = GRADE_WEIGHTS.responsiveness * dimensions.responsiveness +
    GRADE_WEIGHTS.matchRate * dimensions.matchRate +
    GRADE_WEIGHTS.errorParity * dimensions.errorParity +
    GRADE_WEIGHTS.structuralStability * dimensions.structuralStability;
  const score = Math.round(raw * 10) / 10;
  const capped = exchanges.some((exchange) => has(exchange, "missing-response")) &&
    meetsGrade(letterOf(score), "C");
  return { score, letter: capped ? "D" : letterOf(score), capped, dimensions, graded: total };
}
