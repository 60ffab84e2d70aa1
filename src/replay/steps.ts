/**
 * Small rules about recorded steps: pacing, the settle gap, change notices,
 * deliberately broken answers.
 *
 * @module
 */
import { pacedDelay } from "../faults/pacing.ts";
import type { PacingOptions } from "../faults/pacing.ts";
import type { Step, Trigger } from "./episodes.ts";
import type { Ready } from "./wire.ts";
import type { InFlight } from "./flight.ts";

/** The wait before a step recorded `gap` ms after the previous one (none at instant pace). */
export function paced(gap: number, pacing: PacingOptions | undefined): number {
  return pacing ? pacedDelay(gap, pacing) : 0;
}

/**
 * Even at instant pace, a response that follows notifications waits a moment
 * (2 ms): SDK clients dispatch notifications asynchronously but responses at
 * once, so a progress notification read in the same chunk as its response
 * would be dropped.
 */
export function settleGap(trigger: Trigger): number {
  return trigger.steps.length === 0 ? 0 : 2;
}

/** A progress notification that goes to the live request (it asked for progress). */
export function isLiveProgress(step: Step, flight: InFlight): boolean {
  return step.kind === "message" && step.msg.method === "notifications/progress" &&
    flight.progressToken !== undefined;
}

/** `method name`, or the method alone. */
export function describe(trigger: Trigger): string {
  return trigger.key.name ? `${trigger.key.method} ${trigger.key.name}` : trigger.key.method;
}

/** A notification that something on the server changed. */
export function isChangeNotice(step: Step): boolean {
  const method = step.kind === "message" ? step.msg.method : undefined;
  return method !== undefined &&
    (method.endsWith("/list_changed") || method === "notifications/resources/updated");
}

/** An answer broken on purpose by a `malformed` fault. */
export function malformedText(
  ready: Ready,
  strategy: "truncate" | "not_json" | "wrong_id",
): string {
  const response = ready.message;
  if (strategy === "wrong_id") {
    const id = response.id;
    return JSON.stringify({
      ...response,
      id: typeof id === "number" ? id + 1_000_000 : `${id}-wrong`,
    });
  }
  if (strategy === "not_json") return "this is not JSON";
  const text = ready.text ?? JSON.stringify(response);
  return text.slice(0, Math.max(1, Math.floor(text.length / 2)));
}
