/**
 * Session and connection ids from Web Crypto (present in Deno, Node ≥ 19 and
 * Bun), so no `node:crypto` import is needed.
 *
 * @module
 */

/** A random UUID, e.g. for an `Mcp-Session-Id`. */
export function randomId(): string {
  return (globalThis as unknown as { crypto: { randomUUID(): string } }).crypto.randomUUID();
}
