/**
 * `verify --script`: the playbook chooses which of the cassette's recorded
 * exchanges are re-sent. The handshake and the client's notifications are
 * always kept; a request is kept when a playbook step sends it (a `list`
 * step keeps every page of its list). A step the cassette never recorded is
 * a mistake: there is nothing to compare its answer with.
 *
 * @module
 */
import { jsonEqual } from "../json/values.ts";
import type { Json } from "../jsonrpc/messages.ts";
import type { RequestStep as PlannedRequest, VerifyPlan } from "../verify/plan.ts";
import type { OptionValues } from "../options/spec.ts";
import { flag, stringOption } from "../options/spec.ts";
import { UsageError } from "../errors/errors.ts";
import { loadPlaybook, PlaybookError } from "./playbook.ts";
import type { Playbook } from "./playbook.ts";
import type { RequestStep } from "./steps.ts";

/** Params without `_meta`, which carries per-run values such as progress tokens. */
function withoutMeta(params: Json | undefined): Json | undefined {
  if (params === null || typeof params !== "object" || Array.isArray(params)) return params;
  const { _meta: _, ...rest } = params;
  return Object.keys(rest).length === 0 ? undefined : rest;
}

/** True when the recorded request is what the playbook step sends. */
function sends(step: RequestStep, recorded: PlannedRequest): boolean {
  if (step.method !== recorded.method) return false;
  if (step.pages) return true;
  return jsonEqual(withoutMeta(step.params) ?? null, withoutMeta(recorded.params) ?? null);
}

/**
 * The plan cut down to what the playbook sends. Throws a
 * {@linkcode PlaybookError} naming the first step the cassette lacks.
 */
export function choosePlan(plan: VerifyPlan, playbook: Playbook, cassette: string): VerifyPlan {
  const requests = playbook.steps.filter((step): step is RequestStep => step.kind === "request");
  const recorded = plan.sessions.flatMap((session) =>
    session.steps.filter((step): step is PlannedRequest => step.kind === "request")
  );
  requests.forEach((step) => {
    if (!recorded.some((request) => sends(step, request))) {
      const number = playbook.steps.indexOf(step) + 1;
      throw new PlaybookError(
        playbook.file,
        `step ${number} (${step.label}) was never recorded in ${cassette}, so it cannot be verified`,
      );
    }
  });
  const sessions = plan.sessions.map((session) => ({
    ...session,
    steps: session.steps.filter((step) =>
      step.kind === "notification" || step.method === "initialize" ||
      requests.some((request) => sends(request, step))
    ),
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

/** What `verify --script PLAYBOOK` does to the plan, or undefined without `--script`. */
export async function planChooserFromFlags(
  values: OptionValues,
  cassette: string,
): Promise<((plan: VerifyPlan) => VerifyPlan) | undefined> {
  const file = stringOption(values, "script");
  if (file === undefined) return undefined;
  if (flag(values, "update")) {
    throw new UsageError(
      `verify --script does not take --update: ${cassette} would keep only the chosen exchanges`,
    );
  }
  const playbook = await loadPlaybook(file);
  return (plan) => choosePlan(plan, playbook, cassette);
}
