/**
 * "Did you mean" for mistyped names: the closest known name by edit
 * distance, when it is close enough to be the likely intent.
 *
 * @module
 */

/**
 * The Levenshtein distance between `a` and `b`: the fewest single-character
 * insertions, deletions and substitutions that turn one into the other.
 *
 * @example
 * ```ts
 * editDistance("strcit", "strict"); // 2
 * ```
 */
export function editDistance(a: string, b: string): number {
  // One row of the table at a time: the previous row is all the next needs.
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1);
      current.push(Math.min(previous[j] + 1, current[j - 1] + 1, substitution));
    }
    previous = current;
  }
  return previous[b.length];
}

/**
 * The known name `word` most likely meant, or undefined when none is close:
 * within a third of the word's length in edits (at least 2), or the only name
 * that starts with it.
 *
 * @example
 * ```ts
 * closestName("strcit", ["strict", "listen", "seed"]); // "strict"
 * closestName("zzz", ["strict"]); // undefined
 * ```
 */
export function closestName(word: string, known: Iterable<string>): string | undefined {
  const names = [...known];
  const limit = Math.max(2, Math.floor(word.length / 3));
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const name of names) {
    const distance = editDistance(word.toLowerCase(), name.toLowerCase());
    if (distance < bestDistance) [best, bestDistance] = [name, distance];
  }
  if (best !== undefined && bestDistance <= limit && bestDistance < word.length) return best;
  const prefixed = word.length >= 3 ? names.filter((name) => name.startsWith(word)) : [];
  return prefixed.length === 1 ? prefixed[0] : undefined;
}
