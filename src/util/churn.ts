/**
 * Removing from a long-lived Map or Set that holds only what is in flight.
 *
 * A replay's in-flight maps (a session's requests being answered, a stdio
 * front end's work, the open requests of a cassette being read) gain and
 * lose an entry on every call. Measured with V8's sampling heap profiler on
 * a replay answering 100,000 calls one at a time, their `delete` calls made
 * 32 MB of objects that outlived young-generation collections (the hash
 * table V8 makes anew when it shrinks one is made where the old table is:
 * in the old generation, once the Map has lived long enough), and the old
 * generation grew by that much between full collections. A Map emptied by
 * the delete is replaced by a new one instead, which is made young and dies
 * young.
 *
 * @module
 */

/** `map` without `key`: a new empty Map when `key` was its only entry, else `map` itself. */
export function withoutKey<K, V>(map: Map<K, V>, key: K): Map<K, V> {
  if (map.size === 1 && map.has(key)) return new Map();
  map.delete(key);
  return map;
}

/** `set` without `value`: a new empty Set when `value` was its only member, else `set` itself. */
export function withoutValue<T>(set: Set<T>, value: T): Set<T> {
  if (set.size === 1 && set.has(value)) return new Set();
  set.delete(value);
  return set;
}
