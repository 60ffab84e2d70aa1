/**
 * A small seeded pseudo-random generator, so probabilistic faults pick the
 * same requests on every run with the same seed. Not for cryptography.
 *
 * @module
 */

/** A function returning uniformly distributed numbers in [0, 1). */
export type Random = () => number;

/**
 * mulberry32: a 32-bit state generator, tiny and good enough to spread
 * fault picks evenly. Written here rather than imported to keep the core
 * free of dependencies.
 */
export function mulberry32(seed: number): Random {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let mixed = state;
    mixed = Math.imul(mixed ^ (mixed >>> 15), mixed | 1);
    mixed ^= mixed + Math.imul(mixed ^ (mixed >>> 7), mixed | 61);
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4294967296;
  };
}

/** FNV-1a: folds a string into 32 bits. */
function hashText(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return hash >>> 0;
}

/**
 * Derives an independent stream per overlay entry from one seed and a key
 * naming the entry (its `name`, else its position), so adding, removing or
 * moving another entry does not shift this entry's picks.
 */
export function entryRandom(seed: number, entryKey: string): Random {
  const mixed = (seed >>> 0) ^ hashText(entryKey);
  // Warm up once: neighbouring seeds otherwise start with correlated draws.
  const random = mulberry32(mixed >>> 0);
  random();
  return random;
}
