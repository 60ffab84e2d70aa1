/**
 * What a redacted value becomes. Every strategy is deterministic (the same
 * input and key always give the same output) so that replay, re-applying the
 * client-direction rules to a live request, produces exactly what the
 * recording holds. Every output is a placeholder that {@linkcode isPlaceholder}
 * recognises, and rules never look inside placeholders, which makes
 * redaction idempotent.
 *
 * @module
 */
import { hmacSha256Hex } from "./sha256.ts";
import type { PlaceholderDigest } from "./digest.ts";

/** How a matched secret is replaced. */
export type Strategy = "replace" | "hash" | "mask";

/** The strategies, for validation. */
export const STRATEGIES: readonly Strategy[] = ["replace", "hash", "mask"];

/**
 * The hash key used when neither an option nor `MCP_CASSETTE_REDACT_KEY`
 * gives one. Equal values hash equal across cassettes only under the same
 * key; with this public default anyone can confirm a guessed value, so set a
 * private key when values are low-entropy.
 */
export const DEFAULT_HASH_KEY = "mcp-cassette/redact/default-key/v1";

/** A label allowed inside a placeholder. */
export const LABEL_PATTERN = /^[A-Za-z0-9_.-]+$/;

/** Matches any placeholder a strategy produces (`replace` with or without a keyed digest). */
export const PLACEHOLDER_SOURCE = String
  .raw`\[(?:REDACTED:[A-Za-z0-9_.-]+(?::[0-9a-f]{16})?|HASH:[A-Za-z0-9_.-]+:[0-9a-f]{8}|MASK:[A-Za-z0-9_.-]+:[A-Za-z0-9_.@+*-]{0,8})\]`;

const WHOLE_PLACEHOLDER = new RegExp(`^${PLACEHOLDER_SOURCE}$`);

/** True when `value` is exactly one placeholder. */
export function isPlaceholder(value: string): boolean {
  return WHOLE_PLACEHOLDER.test(value);
}

/** A keyed, synchronous, deterministic 32-bit digest of `value`, as 8 hex digits. */
export function keyedHash(key: string, value: string): string {
  return hmacSha256Hex(key, value).slice(0, 8);
}

/**
 * How many trailing characters `mask` keeps: 4 of a value of 12 or more,
 * 2 of 8 to 11, none of a shorter one (the tail would be most of it).
 */
function maskTail(value: string): string {
  const keep = value.length >= 12 ? 4 : value.length >= 8 ? 2 : 0;
  // Characters that could break the placeholder's shape are starred.
  return value.slice(value.length - keep).replace(/[^A-Za-z0-9_.@+-]/g, "*");
}

/**
 * Applies a strategy to one secret. With `digest`, `replace` names the value
 * by its keyed digest (./digest.ts), so distinct values stay distinct.
 */
export function applyStrategy(
  strategy: Strategy,
  label: string,
  secret: string,
  hashKey: string,
  digest?: PlaceholderDigest,
): string {
  switch (strategy) {
    case "replace":
      return digest ? `[REDACTED:${label}:${digest.of(label, secret)}]` : `[REDACTED:${label}]`;
    case "hash":
      return `[HASH:${label}:${keyedHash(hashKey, secret)}]`;
    case "mask": {
      const tail = maskTail(secret);
      return `[MASK:${label}:${"*".repeat(Math.min(4, secret.length - tail.length))}${tail}]`;
    }
  }
}

/** A short, secret-free hint of what matched, for scan reports. */
export function maskedExcerpt(secret: string): string {
  const tail = secret.length >= 16 ? secret.slice(-2).replace(/[^\x21-\x7e]/g, "?") : "";
  return `${
    "*".repeat(Math.min(8, Math.max(4, secret.length - tail.length)))
  }${tail} (${secret.length} chars)`;
}
