/**
 * The options a redactor is built from, in a types-only module so that the
 * redactor (which keeps them as its recipe) and ./mod.ts do not import each
 * other.
 *
 * @module
 */

/** What to redact, beyond the always-on key rule. */
export interface RedactOptions {
  /** `--redact` values: `/json/pointer`, `key:GLOB`, `regex:PATTERN`. */
  rules?: string[];
  /** Paths of TOML rule packs. */
  packs?: string[];
  /** The free-text detectors: all (default `true`), none (`false`), or only those named. */
  detectors?: boolean | readonly string[];
  /**
   * Key for the `hash` strategy. Callers pass the option, else
   * `MCP_CASSETTE_REDACT_KEY`, else leave it out for `DEFAULT_HASH_KEY` (./strategy.ts).
   */
  hashKey?: string;
  /**
   * The secret key of keyed placeholders (`[REDACTED:email:3f9a…]`, ./digest.ts):
   * with it, distinct values stay distinct placeholders; without it, every
   * value a rule finds becomes the same `[REDACTED:<label>]`.
   */
  digestKey?: string;
  /** The cassette's salt for keyed placeholders; a fresh one when left out (set in `recipe`). */
  digestSalt?: string;
}
