/**
 * The ordered answer queues replay draws from. Identical requests are
 * answered in recorded order; when a queue runs out its last answer repeats;
 * a request with no exact queue takes the next unused answer of its method
 * (an inexact match) — for methods that name a target (a tool, a prompt, a
 * resource) only an answer for the same target, since another tool's answer
 * is never a plausible stand-in; anything else is a miss.
 *
 * @module
 */
import type { RequestKey } from "./fingerprint.ts";

/** How a request was matched. */
export type MatchKind = "exact" | "repeat" | "inexact";

/** A successful lookup. */
export interface Match<T> {
  item: T;
  kind: MatchKind;
}

interface Keyed {
  key: RequestKey;
}

/** The queues of one list of items, by exact key and by method (and target). */
interface Index<T> {
  byKey: Map<string, T[]>;
  byMethod: Map<string, T[]>;
}

/**
 * Indexes built once per list of items: every client session served from
 * the same recording shares them, and keeps only its own cursors. (A replay
 * serving thousands of HTTP sessions held a copy of both maps per session.)
 */
const indexes = new WeakMap<readonly Keyed[], Index<Keyed>>();

function indexOf<T extends Keyed>(items: readonly T[]): Index<T> {
  let index = indexes.get(items) as Index<T> | undefined;
  if (!index) {
    index = { byKey: new Map(), byMethod: new Map() };
    for (const item of items) {
      push(index.byKey, item.key.key, item);
      push(index.byMethod, fallbackKey(item.key), item);
    }
    indexes.set(items, index as Index<Keyed>);
  }
  return index;
}

/**
 * Answer queues over items that carry a {@linkcode RequestKey}. The items
 * must not change once a book is open on them (the index is shared).
 */
export class AnswerBook<T extends Keyed> {
  #byKey: Map<string, T[]>;
  #byMethod: Map<string, T[]>;
  #used = new Set<T>();
  #cursor = new Map<string, number>();

  constructor(readonly items: readonly T[]) {
    ({ byKey: this.#byKey, byMethod: this.#byMethod } = indexOf(items));
  }

  /**
   * Takes the answer for `key`, or undefined on a true miss. Without
   * `inexact`, a request with no exact recording is a miss too.
   */
  take(key: RequestKey, inexact = true): Match<T> | undefined {
    const queue = this.#byKey.get(key.key);
    if (queue) {
      for (let at = this.#cursor.get(key.key) ?? 0; at < queue.length; at++) {
        const fresh = queue[at];
        if (this.#used.has(fresh)) continue;
        this.#cursor.set(key.key, at + 1);
        this.#used.add(fresh);
        return { item: fresh, kind: "exact" };
      }
      return { item: queue[queue.length - 1], kind: "repeat" };
    }
    if (!inexact) return undefined;
    const sameMethod = this.#byMethod.get(fallbackKey(key))?.find((item) => !this.#used.has(item));
    if (sameMethod) {
      this.#used.add(sameMethod);
      return { item: sameMethod, kind: "inexact" };
    }
    return undefined;
  }

  /** True when a recorded item answers this key exactly. */
  has(key: RequestKey): boolean {
    return this.#byKey.has(key.key);
  }

  /** Items never taken. */
  unused(): T[] {
    return this.items.filter((item) => !this.#used.has(item));
  }

  /** The recorded keys, for miss diagnostics. */
  keys(): RequestKey[] {
    return this.items.map((item) => item.key);
  }
}

function fallbackKey(key: RequestKey): string {
  return key.name === undefined ? key.method : `${key.method} ${key.name}`;
}

function push<T>(map: Map<string, T[]>, key: string, item: T) {
  const list = map.get(key);
  if (list) list.push(item);
  else map.set(key, [item]);
}
