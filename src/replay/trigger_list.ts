/**
 * A session's triggers as a list of rows: what a streaming replay keeps for
 * a recorded request is its row in the session's columns
 * (./disk_trigger.ts), and the trigger object is made when the list is read.
 *
 * Why: even at three fields each, 100,000 trigger objects made while the
 * file was read, and all kept, made V8 grow its young generation (every
 * collection copies them once, then promotes them): the CLI replay of a
 * 35.7 MB cassette peaked 35-45 MB higher with them than without (docs/replay.md).
 *
 * The list is an Array behind a Proxy, so that everything that reads a
 * session's triggers (indexing, `length`, iteration, `filter`, `splice`)
 * works unchanged. A trigger read twice is two objects over one row: compare
 * triggers with {@linkcode sameTrigger}, not `===`.
 *
 * @module
 */
import { DiskTrigger } from "./disk_trigger.ts";
import type { DiskColumns } from "./disk_trigger.ts";
import type { Trigger } from "./trigger.ts";

/** The position a property key names, or -1 when it names none (`length`, a method). */
function positionOf(key: string | symbol): number {
  if (typeof key !== "string") return -1;
  const first = key.charCodeAt(0);
  if (first < 48 || first > 57) return -1;
  const at = Number(key);
  return Number.isInteger(at) && String(at) === key ? at : -1;
}

/**
 * An empty list of `columns`' triggers. A disk trigger of these columns
 * put in it is kept as its row; anything else (a trigger held as an
 * object: a line that could not be placed, one appended while replaying) as
 * itself.
 */
export function triggerList(columns: DiskColumns): Trigger[] {
  const slots: (number | Trigger)[] = [];
  const list = new Proxy(slots, {
    get(target, key, receiver) {
      const at = positionOf(key);
      if (at < 0 || at >= target.length) return Reflect.get(target, key, receiver);
      const slot = target[at];
      return typeof slot === "number" ? new DiskTrigger(columns, slot, at) : slot;
    },
    set(target, key, value) {
      const at = positionOf(key);
      if (at < 0) return Reflect.set(target, key, value);
      const row = value instanceof DiskTrigger ? value.rowIn(columns) : undefined;
      target[at] = row ?? value;
      return true;
    },
  });
  // What reads it sees triggers: the rows are turned into them on the way out.
  return list as unknown as Trigger[];
}

/** True when `a` and `b` stand for one recorded trigger. */
export function sameTrigger(a: Trigger, b: Trigger | undefined): boolean {
  if (a === b) return true;
  return a instanceof DiskTrigger && b instanceof DiskTrigger && a.sameRowAs(b);
}
