/**
 * Keyed placeholders: `[REDACTED:email:3f9a2c1b7d0e5a64]` names a redacted
 * value by a keyed digest, so two different values stay two different
 * placeholders (a replay then matches a live request exactly, never
 * another's recording) while the file alone does not give the value back.
 * The digest is HMAC-SHA-256 under a secret key the cassette does not hold,
 * of the cassette's own salt, the rule's label and the value: without the
 * key, even a value from a small set (an IPv4 address, an e-mail from a staff
 * list) cannot be confirmed by trying candidates, and the salt keeps one
 * value's digests apart across cassettes. docs/redaction.md weighs this
 * against the other ways.
 *
 * @module
 */
import { hmacSha256Hex, toHex } from "./sha256.ts";

/** What a cassette header says of its keyed placeholders. */
export interface DigestInfo {
  /** Random, per cassette: the same value digests differently in another cassette. */
  salt: string;
  /** The key's id under this salt: tells a wrong key from a right one without giving the key away. */
  key: string;
}

/** What to set when a cassette's keyed placeholders need a key. */
export const KEY_HINT = "set MCP_CASSETTE_REDACT_KEY to the key it was recorded with " +
  "(a recorder's own key is in ~/.config/mcp-cassette/redact.key)";

/** Hex digits of digest a placeholder carries: 64 bits, so a cassette's distinct values stay distinct. */
export const DIGEST_HEX = 16;

/** `count` random bytes from the platform's cryptographic source. */
export function randomBytes(count: number): Uint8Array {
  const web = globalThis as unknown as {
    crypto: { getRandomValues(bytes: Uint8Array): Uint8Array };
  };
  return web.crypto.getRandomValues(new Uint8Array(count));
}

/** Makes the digests of one cassette under one key. */
export class PlaceholderDigest {
  readonly #cache = new Map<string, string>();

  constructor(readonly secret: string, readonly salt: string) {}

  /** A fresh digest for a new cassette (a new random salt). */
  static fresh(secret: string): PlaceholderDigest {
    return new PlaceholderDigest(secret, toHex(randomBytes(16)));
  }

  /** The id of this key under this salt, for the header. */
  get keyId(): string {
    return hmacSha256Hex(this.secret, `mcp-cassette/key-id\0${this.salt}`).slice(0, 12);
  }

  /** The header's record of it. */
  info(): DigestInfo {
    return { salt: this.salt, key: this.keyId };
  }

  /** The digest of `value` found by the rule labelled `label`. */
  of(label: string, value: string): string {
    const input = `${this.salt}\0${label}\0${value}`;
    let digest = this.#cache.get(input);
    if (digest === undefined) {
      digest = hmacSha256Hex(this.secret, input).slice(0, DIGEST_HEX);
      if (this.#cache.size > 4096) this.#cache.clear();
      this.#cache.set(input, digest);
    }
    return digest;
  }
}
