/**
 * A bounded memo for pure verdicts on small, recurring strings: a client
 * sends the same few `Host`, `Origin`, `Accept` and `Content-Type` values on
 * every request, and the same few keys in every message, so judging each
 * distinct one once saves that work on every request after the first.
 *
 * @module
 */

/**
 * Wraps `compute` so each distinct key is computed once. Past `limit` keys
 * the memo starts over, so a client sending ever-new values costs memory
 * only up to the limit.
 *
 * @example
 * ```ts
 * const lower = memoize((text) => text.toLowerCase());
 * lower("Text/Plain"); // "text/plain", computed once
 * ```
 */
export function memoize<R>(compute: (key: string) => R, limit = 256): (key: string) => R {
  const known = new Map<string, R>();
  return (key) => {
    const hit = known.get(key);
    if (hit !== undefined || known.has(key)) return hit as R;
    if (known.size >= limit) known.clear();
    const value = compute(key);
    known.set(key, value);
    return value;
  };
}
