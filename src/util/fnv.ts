/**
 * A 32-bit FNV-1a hash of a string's UTF-16 code units, as a signed integer:
 * cheap (about 1 ns a character), and small enough that V8 keeps it unboxed,
 * where an unsigned one made a heap number of every value held.
 *
 * @module
 */

/** The FNV-1a hash of `text`'s UTF-16 code units, signed. */
export function fnv1a32(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return hash | 0;
}
