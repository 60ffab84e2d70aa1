/**
 * The answer queues replay draws from, and the rule that picks among
 * identical recorded requests.
 *
 * A recorded request is a stand-in for a live one only when the live
 * session reached the same state: an answer recorded after some other
 * request (a write, say) is the answer to give once the live session has
 * made that request too. So among the recordings of one key the book takes
 * the latest one whose earlier requests the live session has all made
 * ("causal order"); several such recordings with nothing new between them
 * are answered in recorded order, and the last of them repeats once they are
 * used up. When every recording of the key follows a request the live
 * session has not made, the earliest unused one answers and the match is
 * reported as out of order. docs/replay.md describes the rule with examples.
 *
 * With `inexact`, a request with no recording of its key takes the next
 * unused answer of its method (for methods that name a target — a tool, a
 * prompt, a resource — only of the same target); anything else is a miss.
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
  /** Every recording of the key followed a request this session has not made. */
  outOfOrder?: boolean;
}

/** What a book indexes: a key, and whether the item is a request (only requests make history). */
export interface Keyed {
  key: RequestKey;
  isRequest?: boolean;
}

/** Where each recorded item sits, built once per list of items. */
interface Index {
  /** Item positions by exact key, ascending. */
  byKey: Map<string, number[]>;
  /** Item positions by method (and target), ascending. */
  byMethod: Map<string, number[]>;
  /** Request keys in the order each was first recorded. */
  distinct: string[];
  /** Where each distinct request key was first recorded. */
  firstSeen: Map<string, number>;
  /**
   * Per item, how many distinct request keys other than its own were first
   * recorded before it: two recordings of one key with the same rank have
   * nothing new between them.
   */
  rank: Int32Array;
}

/**
 * Indexes built once per list of items: every client session served from
 * the same recording shares them, and keeps only its own cursors. (A replay
 * serving thousands of HTTP sessions held a copy of both maps per session.)
 */
const indexes = new WeakMap<readonly Keyed[], Index>();

function indexOf(items: readonly Keyed[]): Index {
  let index = indexes.get(items);
  if (index) return index;
  index = {
    byKey: new Map(),
    byMethod: new Map(),
    distinct: [],
    firstSeen: new Map(),
    rank: new Int32Array(items.length),
  };
  for (let at = 0; at < items.length; at++) {
    const { key, isRequest } = items[at];
    push(index.byKey, key.key, at);
    push(index.byMethod, fallbackKey(key), at);
    const seenBefore = index.firstSeen.has(key.key);
    index.rank[at] = index.distinct.length - (seenBefore ? 1 : 0);
    if (isRequest !== false && !seenBefore) {
      index.firstSeen.set(key.key, at);
      index.distinct.push(key.key);
    }
  }
  indexes.set(items, index);
  return index;
}

/**
 * Answer queues over items that carry a {@linkcode RequestKey}, for one live
 * session. The items must not change once a book is open on them (the
 * index is shared).
 */
export class AnswerBook<T extends Keyed> {
  #index: Index;
  #used: Uint8Array;
  /** Request keys this live session has been answered for. */
  #asked = new Set<string>();
  /** Distinct keys before this position have all been asked. */
  #frontier = 0;

  constructor(readonly items: readonly T[]) {
    this.#index = indexOf(items);
    this.#used = new Uint8Array(items.length);
  }

  /**
   * Takes the answer for `key`, or undefined on a miss. Without `inexact`
   * (the default), a request with no recording of its exact key is a miss.
   */
  take(key: RequestKey, inexact = false): Match<T> | undefined {
    const queue = this.#index.byKey.get(key.key);
    if (queue) return this.#choose(queue, key.key);
    if (!inexact) return undefined;
    const sameMethod = this.#index.byMethod.get(fallbackKey(key))?.find((at) => !this.#used[at]);
    if (sameMethod === undefined) return undefined;
    this.#used[sameMethod] = 1;
    this.#note(key.key);
    return { item: this.items[sameMethod], kind: "inexact" };
  }

  /**
   * Takes an answer among the recordings of `key`'s method (and target)
   * that `accepts` (a user's matcher) says stand for the live request.
   */
  takeWhere(key: RequestKey, accepts: (item: T) => boolean): Match<T> | undefined {
    const candidates = this.#index.byMethod.get(fallbackKey(key))?.filter((at) =>
      accepts(this.items[at])
    );
    return candidates && candidates.length > 0 ? this.#choose(candidates, key.key) : undefined;
  }

  /** True when a recorded item answers this key exactly. */
  has(key: RequestKey): boolean {
    return this.#index.byKey.has(key.key);
  }

  /** Items never taken. */
  unused(): T[] {
    return this.items.filter((_, at) => !this.#used[at]);
  }

  /** The recorded keys, for miss diagnostics. */
  keys(): RequestKey[] {
    return this.items.map((item) => item.key);
  }

  /** Items of this method (and target), for a user's matcher. */
  candidates(key: RequestKey): T[] {
    return (this.#index.byMethod.get(fallbackKey(key)) ?? []).map((at) => this.items[at]);
  }

  /** The causal rule (see the module doc) over positions of one key, ascending. */
  #choose(queue: readonly number[], key: string): Match<T> {
    const horizon = this.#horizon(key);
    let last = -1;
    while (last + 1 < queue.length && queue[last + 1] < horizon) last++;
    let chosen: number;
    let kind: MatchKind = "exact";
    let outOfOrder = false;
    if (last >= 0) {
      const rank = this.#index.rank[queue[last]];
      let first = last;
      while (first > 0 && this.#index.rank[queue[first - 1]] === rank) first--;
      chosen = last;
      for (let at = first; at <= last; at++) {
        if (!this.#used[queue[at]]) {
          chosen = at;
          break;
        }
      }
    } else {
      outOfOrder = true;
      const fresh = queue.findIndex((at) => !this.#used[at]);
      chosen = fresh >= 0 ? fresh : queue.length - 1;
    }
    const position = queue[chosen];
    if (this.#used[position]) kind = "repeat";
    this.#used[position] = 1;
    this.#note(key);
    return outOfOrder
      ? { item: this.items[position], kind, outOfOrder }
      : { item: this.items[position], kind };
  }

  /**
   * The position of the first recorded request, other than `key`, that this
   * session has not made: recordings of `key` before it are in causal order.
   */
  #horizon(key: string): number {
    const { distinct, firstSeen } = this.#index;
    while (this.#frontier < distinct.length && this.#asked.has(distinct[this.#frontier])) {
      this.#frontier++;
    }
    for (let at = this.#frontier; at < distinct.length; at++) {
      const other = distinct[at];
      if (other !== key && !this.#asked.has(other)) return firstSeen.get(other)!;
    }
    return Number.POSITIVE_INFINITY;
  }

  #note(key: string): void {
    this.#asked.add(key);
  }
}

function fallbackKey(key: RequestKey): string {
  return key.name === undefined ? key.method : `${key.method} ${key.name}`;
}

function push<V>(map: Map<string, V[]>, key: string, item: V) {
  const list = map.get(key);
  if (list) list.push(item);
  else map.set(key, [item]);
}
