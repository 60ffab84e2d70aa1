/**
 * Cassette expiry: a recording is true the day it is made, so a cassette
 * may be given a most age (`--max-age 30d`). Its header's `created` time is
 * compared with now; what an expired cassette does is `--on-expired`'s
 * choice: `warn` (the default), `fail` (exit 8), or `rerecord` (the test
 * helpers' `once` mode records it anew).
 *
 * @module
 */
import { ExpiredError, UsageError } from "../errors/errors.ts";

/** What an expired cassette does. */
export type OnExpired = "warn" | "fail" | "rerecord";

/** Every `--on-expired` choice. */
export const ON_EXPIRED: readonly OnExpired[] = ["warn", "fail", "rerecord"];

const UNIT_MS: Readonly<Record<string, number>> = {
  s: 1_000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
  w: 7 * 86_400_000,
};

/**
 * Parses a duration such as `30d`, `12h`, `90m`, `45s`, `2w` or `1d12h`
 * into milliseconds; `name` (e.g. `--max-age`) names it in the error.
 *
 * @example
 * ```ts
 * parseDuration("1d12h", "--max-age"); // 129600000
 * ```
 */
export function parseDuration(text: string, name: string): number {
  const trimmed = text.trim();
  const parts = [...trimmed.matchAll(/(\d+)([smhdw])/g)];
  const whole = parts.map((part) => part[0]).join("");
  if (trimmed === "" || whole !== trimmed) {
    throw new UsageError(
      `${name} must be a duration such as 30d, 12h, 90m or 1d12h, not ${JSON.stringify(text)}`,
    );
  }
  const ms = parts.reduce((sum, part) => sum + Number(part[1]) * UNIT_MS[part[2]], 0);
  if (ms <= 0) {
    throw new UsageError(`${name} must be longer than zero, not ${JSON.stringify(text)}`);
  }
  return ms;
}

/** Checks an `--on-expired` value; `name` says where it came from. */
export function parseOnExpired(text: string, name: string): OnExpired {
  if ((ON_EXPIRED as readonly string[]).includes(text)) return text as OnExpired;
  throw new UsageError(
    `${name} must be one of ${ON_EXPIRED.join(", ")}, not ${JSON.stringify(text)}`,
  );
}

/** A duration in the largest whole unit that fits, for messages (`41d`, `3h`). */
export function formatDuration(ms: number): string {
  for (const unit of ["d", "h", "m"] as const) {
    if (ms >= UNIT_MS[unit] && ms % UNIT_MS[unit] === 0) return `${ms / UNIT_MS[unit]}${unit}`;
  }
  if (ms >= UNIT_MS.d) return `${Math.floor(ms / UNIT_MS.d)}d`;
  if (ms >= UNIT_MS.h) return `${Math.floor(ms / UNIT_MS.h)}h`;
  if (ms >= UNIT_MS.m) return `${Math.floor(ms / UNIT_MS.m)}m`;
  return `${Math.floor(ms / UNIT_MS.s)}s`;
}

/** How old a cassette is, when it is older than allowed. */
export interface Expiry {
  /** The cassette's age in milliseconds. */
  ageMs: number;
  /** The limit it passed. */
  maxAgeMs: number;
  /** One line naming the cassette, its age and the limit. */
  message: string;
}

/**
 * The cassette's expiry, or undefined while it is young enough. A header
 * whose `created` does not parse counts as expired: its age is unknown.
 */
export function expiryOf(
  cassette: string,
  created: string,
  maxAgeMs: number,
  now: number = Date.now(),
): Expiry | undefined {
  const made = Date.parse(created);
  const ageMs = Number.isFinite(made) ? now - made : Number.POSITIVE_INFINITY;
  if (ageMs <= maxAgeMs) return undefined;
  const age = Number.isFinite(ageMs) ? `${formatDuration(ageMs)} old` : "of unknown age";
  const message = `The cassette ${cassette} is ${age} (recorded ${
    JSON.stringify(created)
  }), older than its max age ${formatDuration(maxAgeMs)}`;
  return { ageMs, maxAgeMs, message };
}

/**
 * Applies `onExpired` to an expired cassette that is about to be replayed:
 * `fail` throws {@linkcode ExpiredError} (exit 8), `warn` logs the line.
 * (`rerecord` is the test helpers' to carry out; here it warns.)
 */
export function enforceExpiry(
  expiry: Expiry | undefined,
  onExpired: OnExpired,
  log: (line: string) => void,
): void {
  if (!expiry) return;
  if (onExpired === "fail") throw new ExpiredError(`${expiry.message} (--on-expired fail)`);
  log(`warning: ${expiry.message}; re-record it (or raise the max age)`);
}
