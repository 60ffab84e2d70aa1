/**
 * The stateless era's pool: every recorded session served as one, and the
 * small promise helper the engine's reading uses.
 *
 * @module
 */
import type { RecordedSession, Trigger } from "./episodes.ts";

/** All sessions as one, triggers in session order (for the stateless modern era). */
export function mergeSessions(sessions: RecordedSession[]): RecordedSession {
  const triggers = sessions.flatMap((session) => session.triggers).map(reindexed);
  return {
    id: sessions.map((session) => session.id).join("+"),
    triggers,
    opening: sessions[0]?.opening ?? [],
    standalone: [],
  };
}

/**
 * `trigger` at another place: a copy with its prototype, so that a disk
 * trigger's getters (./disk_trigger.ts) come along.
 */
function reindexed(trigger: Trigger, index: number): Trigger {
  return Object.assign(Object.create(Object.getPrototypeOf(trigger)), trigger, { index });
}

/** A promise with its resolve function. */
export function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve = () => {};
  const promise = new Promise<void>((done) => (resolve = done));
  return { promise, resolve };
}
