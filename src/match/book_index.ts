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
 * Where each recorded item sits, built once per list of items and extended
 * as it grows. It is all typed arrays but for two small maps: an index of a
 * list of 100,000 items in Maps and arrays was built while the file was
 * read, lived as long as the replay, and made V8 grow its young generation
 * (docs/replay.md). Keys are indexed by their hash, not their text: a
 * recording left in the cassette file does not hold its key's text as a
 * string (../replay/disk_trigger.ts), and a hit is confirmed by comparing
 * the keys. Each key's positions, and each method's, are a chain through
 * per-position arrays.
 */
export interface Index {
  /** How many of the items are indexed (a list still being read grows). */
  count: number;
  /** Set when the items' marks changed: the next use rebuilds the index. */
  stale: boolean;
  /**
   * Open-addressed slots of [hash, first position + 1] (0: empty): the first
   * position of the first key recorded with each hash.
   */
  table: Int32Array;
  /** How many slots of `table` are taken. */
  keys: number;
  /** The first position of a key whose hash an earlier, different key has, by the key. */
  collided: Map<string, number>;
  /** First and last positions by method (and target). */
  methods: Map<string, { first: number; last: number }>;
  /** Per position: the next position of the same key, or -1. */
  nextOfKey: Int32Array;
  /** At a key's first position: its last position. */
  lastOfKey: Int32Array;
  /** Per position: the next position of the same method (and target), or -1. */
  nextOfMethod: Int32Array;
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
  const positions = Math.max(capacity, 16);
  return {
    count: 0,
    stale: false,
    table: new Int32Array(2 * slotsFor(positions)),
    keys: 0,
    collided: new Map(),
    methods: new Map(),
    nextOfKey: new Int32Array(positions),
    lastOfKey: new Int32Array(positions),
    nextOfMethod: new Int32Array(positions),
    distinct: 0,
    place: new Int32Array(positions),
    rank: new Int32Array(positions),
    prefix: new Int32Array(positions),
  };
}

/** Table slots for `keys` keys: a power of two, at most half of them taken. */
function slotsFor(keys: number): number {
  let slots = 16;
  while (slots < 2 * keys) slots *= 2;
  return slots;
}

/** The index of `items`, extended to the items appended since it was last used. */
export function indexOf(items: readonly Keyed[]): Index {
  let index = indexes.get(items);
  if (!index || index.stale) indexes.set(items, index = emptyIndex(items.length));
  if (index.count < items.length) extend(index, items);
  return index;
}

function extend(index: Index, items: readonly Keyed[]): void {
  if (index.rank.length < items.length) growPositions(index, items.length);
  for (let at = index.count; at < items.length; at++) {
    const { key, isRequest, changesState } = items[at];
    const first = addPosition(index, items, key, at);
    addToMethod(index, fallbackKey(key), at);
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

function growPositions(index: Index, needed: number): void {
  const capacity = Math.max(needed, index.rank.length * 2);
  index.nextOfKey = grown(index.nextOfKey, capacity);
  index.lastOfKey = grown(index.lastOfKey, capacity);
  index.nextOfMethod = grown(index.nextOfMethod, capacity);
  index.rank = grown(index.rank, capacity);
  index.prefix = grown(index.prefix, capacity);
  index.place = grown(index.place, capacity);
}

/** Files item `at` under its key; returns the key's first position (`at` for a new key). */
function addPosition(index: Index, items: readonly Keyed[], key: RequestKey, at: number): number {
  index.nextOfKey[at] = -1;
  const hash = hashOf(key);
  let first = firstWithHash(index, hash);
  if (first < 0) {
    addHash(index, hash, at);
  } else if (items[first].key.key !== key.key) {
    const text = key.key;
    first = index.collided.get(text) ?? -1;
    if (first < 0) index.collided.set(text, at);
  }
  if (first < 0) {
    index.lastOfKey[at] = at;
    return at;
  }
  index.nextOfKey[index.lastOfKey[first]] = at;
  index.lastOfKey[first] = at;
  return first;
}

/** The first position filed under `hash`, or -1. */
function firstWithHash(index: Index, hash: number): number {
  const { table } = index;
  const mask = table.length / 2 - 1;
  for (let slot = hash & mask;; slot = (slot + 1) & mask) {
    const taken = table[2 * slot + 1];
    if (taken === 0) return -1;
    if (table[2 * slot] === hash) return taken - 1;
  }
}

function addHash(index: Index, hash: number, at: number): void {
  if (2 * (index.keys + 1) > index.table.length / 2) rehash(index);
  const { table } = index;
  const mask = table.length / 2 - 1;
  let slot = hash & mask;
  while (table[2 * slot + 1] !== 0) slot = (slot + 1) & mask;
  table[2 * slot] = hash;
  table[2 * slot + 1] = at + 1;
  index.keys++;
}

function rehash(index: Index): void {
  const old = index.table;
  index.table = new Int32Array(2 * slotsFor(index.keys + 1));
  index.keys = 0;
  for (let slot = 0; slot < old.length / 2; slot++) {
    if (old[2 * slot + 1] !== 0) addHash(index, old[2 * slot], old[2 * slot + 1] - 1);
  }
}

function addToMethod(index: Index, method: string, at: number): void {
  index.nextOfMethod[at] = -1;
  const chain = index.methods.get(method);
  if (!chain) {
    index.methods.set(method, { first: at, last: at });
    return;
  }
  index.nextOfMethod[chain.last] = at;
  chain.last = at;
}

/** The positions of the items keyed exactly `key` (whose hash is `hash`), ascending. */
export function positionsOf(
  index: Index,
  items: readonly Keyed[],
  key: string,
  hash: number,
): number[] | undefined {
  let first = firstWithHash(index, hash);
  if (first >= 0 && items[first].key.key !== key) first = index.collided.get(key) ?? -1;
  return first < 0 ? undefined : chain(index.nextOfKey, first);
}

/** The positions of the items of `method` (and target, see {@linkcode fallbackKey}), ascending. */
export function methodPositions(index: Index, method: string): number[] | undefined {
  const found = index.methods.get(method);
  return found ? chain(index.nextOfMethod, found.first) : undefined;
}

function chain(next: Int32Array, first: number): number[] {
  const positions: number[] = [];
  for (let at = first; at >= 0; at = next[at]) positions.push(at);
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
