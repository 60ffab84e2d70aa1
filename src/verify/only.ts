/**
 * `verify --only tool=NAME` / `--only method=NAME`: which recorded exchanges
 * are re-sent, graded and (with `--update-failed` or `--update`) rewritten.
 * The others are not sent and stay as recorded. The handshake (`initialize`)
 * is always sent, since a session cannot open without it, but it is graded
 * only when a filter selects it.
 *
 * @module
 */
import { UsageError } from "../errors/errors.ts";
import type { RequestStep, VerifyPlan } from "./plan.ts";

/** One `--only` filter. */
export interface OnlyFilter {
  /** `tool` matches a tools/call by the tool's name; `method` a request by its method. */
  kind: "tool" | "method";
  name: string;
  /** As the user wrote it, for messages. */
  text: string;
}

/** What an `initialize` the filters do not select is, in the report. */
export const HANDSHAKE_ONLY = "handshake: sent, not graded under --only";

/** Parses `--only` values; a malformed one is a UsageError naming it (exit 2). */
export function parseOnly(values: readonly string[]): OnlyFilter[] {
  return values.map((text) => {
    const match = /^(tool|method)=(.+)$/.exec(text);
    if (!match || match[2].trim() === "") {
      throw new UsageError(
        `--only ${JSON.stringify(text)}: expected tool=NAME or method=NAME`,
      );
    }
    return { kind: match[1] as OnlyFilter["kind"], name: match[2], text };
  });
}

/** Whether `filter` selects the recorded request `step`. */
export function selects(filter: OnlyFilter, step: RequestStep): boolean {
  if (filter.kind === "method") return step.method === filter.name;
  return step.method === "tools/call" && step.target === filter.name;
}

/**
 * The plan cut down to the exchanges the filters select (any of them), the
 * client's notifications and the handshake. A filter that selects no
 * recorded exchange is a UsageError naming it: a typo must not pass as
 * "nothing to do".
 */
export function chooseOnly(
  plan: VerifyPlan,
  filters: readonly OnlyFilter[],
  cassette: string,
): VerifyPlan {
  if (filters.length === 0) return plan;
  const requests = plan.sessions.flatMap((session) =>
    session.steps.filter((step): step is RequestStep => step.kind === "request")
  );
  for (const filter of filters) {
    if (!requests.some((step) => selects(filter, step))) {
      throw new UsageError(`--only ${filter.text} matches no recorded exchange in ${cassette}`);
    }
  }
  const chosen = (step: RequestStep) => filters.some((filter) => selects(filter, step));
  const sessions = plan.sessions.map((session) => ({
    ...session,
    steps: session.steps.flatMap((step) => {
      if (step.kind === "notification" || chosen(step)) return [step];
      if (step.method !== "initialize") return [];
      return [{ ...step, ungraded: HANDSHAKE_ONLY }];
    }),
  }));
  return {
    ...plan,
    sessions,
    requestCount: sessions.reduce(
      (count, session) => count + session.steps.filter((step) => step.kind === "request").length,
      0,
    ),
  };
}
