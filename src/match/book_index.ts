/**
 * The index an answer book looks items up in: positions by key (by the
 * key's hash, confirmed by the key), by method, and each item's place in the
 * history of state-changing requests. Built once per list of items and
 * shared by every book over it.
 *
 * @module
 */
import { hashOf } from "./fingerprint.ts";
import type { RequestKey } from "./fingerprint.ts";

/**
 * What a book indexes: a key, whether the item is a request, and whether it
 * may change the server's state. Only requests that may change state make
 * history (a read cannot have changed what a later answer says).
 */
export interface Keyed {
  key: RequestKey;
  isRequest?: boolean;
  changesState?: boolean;
}

/**
 * The positions of the items of one key, ascending: a number while there is
 * one (most keys are recorded once, and a list per key held a 100,000-call
 * cassette's book 7 MB).
 */
export type Positions = number | number[];

/**
 * Where each recorded item sits, built once per list of items and extended
 * as it grows. Keys are indexed by their hash, not their text: a recording
 * left in the cassette file does not hold its key's text (../replay/disk_trigger.ts),
 * and a hit is confirmed by comparing the keys.
 */
export interface Index {
  /** How many of the items are indexed (a list still being read grows). */
  count: number;
  /** Set when the items' marks changed: the next use rebuilds the index. */
  stale: boolean;
  /** Item positions by the hash of their key: of the first key recorded with that hash. */
  byHash: Map<number, Positions>;
  /** Item positions of a key whose hash an earlier, different key has, by the key. */
  collided: Map<string, Positions>;
  /** Item positions by method (and target), ascending. */
  byMethod: Map<string, number[]>;
  /** How many distinct history keys were recorded. */
  distinct: number;
  /** At a key's first position, the key's place among the history keys; -1 elsewhere. */
  place: Int32Array;
  /**
   * Per item, how many distinct request keys other than its own were first
   * recorded before it: two recordings of one key with the same rank have
   * nothing new between them.
   */
  rank: Int32Array;
  /** Per item, how many distinct history keys (its own included) were first recorded before it. */
  prefix: Int32Array;
}

/**
 * Indexes built once per list of items: every client session served from
 * the same recording shares them, and keeps only its own cursors. (A replay
 * serving thousands of HTTP sessions held a copy of both maps per session.)
 */
const indexes = new WeakMap<readonly Keyed[], Index>();

function emptyIndex(capacity: number): Index {
  return {
    count: 0,
    stale: false,
    byHash: new Map(),
    collided: new Map(),
    byMethod: new Map(),
    distinct: 0,
    place: new Int32Array(capacity),
    rank: new Int32Array(capacity),
    prefix: new Int32Array(capacity),
  };
}

/** The index of `items`, extended to the items appended since it was last used. */
export function indexOf(items: readonly Keyed[]): Index {
  let index = indexes.get(items);
  if (!index || index.stale) indexes.set(items, index = emptyIndex(items.length));
  if (index.count < items.length) extend(index, items);
  return index;
}

function extend(index: Index, items: readonly Keyed[]): void {
  if (index.rank.length < items.length) {
    const capacity = Math.max(items.length, index.rank.length * 2);
    index.rank = grown(index.rank, capacity);
    index.prefix = grown(index.prefix, capacity);
    index.place = grown(index.place, capacity);
  }
  for (let at = index.count; at < items.length; at++) {
    const { key, isRequest, changesState } = items[at];
    const first = addPosition(index, items, key, at);
    push(index.byMethod, fallbackKey(key), at);
    index.place[at] = -1;
    const seenBefore = index.place[first] >= 0;
    index.prefix[at] = index.distinct;
    index.rank[at] = index.distinct - (seenBefore ? 1 : 0);
    if (isRequest !== false && changesState !== false && !seenBefore) {
      index.place[first] = index.distinct++;
    }
  }
  index.count = items.length;
}

/** Files item `at` under its key; returns the key's first position (`at` for a new key). */
function addPosition(index: Index, items: readonly Keyed[], key: RequestKey, at: number): number {
  const hash = hashOf(key);
  const hit = index.byHash.get(hash);
  if (hit === undefined) {
    index.byHash.set(hash, at);
    return at;
  }
  const text = key.key;
  if (items[firstOf(hit)].key.key === text) {
    index.byHash.set(hash, withPosition(hit, at));
    return firstOf(hit);
  }
  const other = index.collided.get(text);
  index.collided.set(text, other === undefined ? at : withPosition(other, at));
  return other === undefined ? at : firstOf(other);
}

/** The positions of the items keyed exactly `key` (whose hash is `hash`). */
export function positionsOf(
  index: Index,
  items: readonly Keyed[],
  key: string,
  hash: number,
): Positions | undefined {
  const hit = index.byHash.get(hash);
  if (hit === undefined) return undefined;
  return items[firstOf(hit)].key.key === key ? hit : index.collided.get(key);
}

function firstOf(positions: Positions): number {
  return typeof positions === "number" ? positions : positions[0];
}

/** The positions as a list. */
export function listOf(positions: Positions): readonly number[] {
  return typeof positions === "number" ? [positions] : positions;
}

function withPosition(positions: Positions, at: number): Positions {
  if (typeof positions === "number") return [positions, at];
  positions.push(at);
  return positions;
}

/** `array` copied into a new one of `capacity` elements. */
export function grown<A extends Int32Array | Uint8Array>(array: A, capacity: number): A {
  const bigger = new (array.constructor as new (length: number) => A)(capacity);
  bigger.set(array);
  return bigger;
}

/**
 * Tells every book over `items` that their marks changed (a request turned
 * out to be a read): each rebuilds its index and its history at next use.
 */
export function invalidateIndex(items: readonly Keyed[]): void {
  const index = indexes.get(items);
  if (index) index.stale = true;
}

/** The method, and the target where the method names one: what `inexact` and matchers group by. */
export function fallbackKey(key: RequestKey): string {
  return key.name === undefined ? key.method : `${key.method} ${key.name}`;
}

function push<V>(map: Map<string, V[]>, key: string, item: V) {
  const list = map.get(key);
  if (list) list.push(item);
  else map.set(key, [item]);
}
