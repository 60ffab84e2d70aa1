/**
 * How a miss says how to fix it: when a live request differs from its
 * closest recording only in values that look volatile (UUIDs, timestamps,
 * epoch numbers, long random hex or base64), the miss message ends with the
 * exact `--match-ignore` flags that would have matched it. Kept apart from
 * the diagnosis itself (src/match/diagnose.ts): it only appends.
 *
 * @module
 */
import { pathStep } from "../json/values.ts";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const ISO_TIME = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/;
const LONG_HEX = /^(0x)?[0-9a-f]{16,}$/i;
const BASE64ISH = /^[A-Za-z0-9+/_-]{20,}={0,2}$/;
/** Epoch seconds and milliseconds between 2001 and 2286. */
const EPOCH = /^(1\d{9}|1\d{12})$/;

/** Whether a value looks as if it changes on every call. */
export function looksVolatile(value: unknown): boolean {
  if (typeof value === "number") return Number.isInteger(value) && EPOCH.test(String(value));
  if (typeof value !== "string") return false;
  if (UUID.test(value) || ISO_TIME.test(value) || EPOCH.test(value) || LONG_HEX.test(value)) {
    return true;
  }
  // Random base64 mixes upper case, lower case and digits; a long word, slug or identifier does not.
  return BASE64ISH.test(value) && /\d/.test(value) && /[A-Z]/.test(value) && /[a-z]/.test(value);
}

/**
 * Every leaf path where `recorded` and `live` differ, or undefined when
 * they differ in shape (a key or element only one side has, another type).
 */
function leafDifferences(recorded: unknown, live: unknown, path: string, out: string[]): boolean {
  if (recorded === live) return true;
  const bothObjects = typeof recorded === "object" && typeof live === "object" &&
    recorded !== null && live !== null && Array.isArray(recorded) === Array.isArray(live);
  if (!bothObjects) {
    out.push(path);
    return looksVolatile(recorded) && looksVolatile(live);
  }
  if (Array.isArray(recorded)) {
    const other = live as unknown[];
    if (recorded.length !== other.length) return false;
    return recorded.every((item, i) => leafDifferences(item, other[i], `${path}[${i}]`, out));
  }
  const left = recorded as Record<string, unknown>;
  const right = live as Record<string, unknown>;
  const keys = new Set([...Object.keys(left), ...Object.keys(right)]);
  for (const key of keys) {
    if (!Object.hasOwn(left, key) || !Object.hasOwn(right, key)) return false;
    if (!leafDifferences(left[key], right[key], path + pathStep(key), out)) return false;
  }
  return true;
}

/**
 * The `--match-ignore` paths that would make `live` match `recorded` (both
 * a request's `params`), when every difference is between two
 * volatile-looking values; empty otherwise.
 *
 * @example
 * ```ts
 * volatilePaths(
 *   { arguments: { request_id: "4f1c2a9e-0b7d-4e22-9a51-3f0c8d2b7e10" } },
 *   { arguments: { request_id: "9a0b1c2d-3e4f-4a5b-8c6d-7e8f9a0b1c2d" } },
 * ); // ["params.arguments.request_id"]
 * ```
 */
export function volatilePaths(recorded: unknown, live: unknown): string[] {
  const paths: string[] = [];
  if (!leafDifferences(recorded, live, "params", paths)) return [];
  return paths;
}

/** The text a miss message ends with: the exact flags to add, or nothing. */
export function volatileHint(paths: readonly string[]): string {
  if (paths.length === 0) return "";
  const flags = paths.map((path) => `--match-ignore ${path}`).join(" ");
  const what = paths.length === 1 ? "the value looks" : "the values look";
  return `; ${what} different on every call: add ${flags}`;
}

/**
 * The paths to suggest for one miss: only when what differed from the
 * closest recording lies in the params (not the method or the name).
 */
export function volatileIgnores(
  diagnosis: { differs?: string; closestParams?: unknown },
  live: unknown,
): string[] {
  if (!diagnosis.differs?.startsWith("params")) return [];
  return volatilePaths(diagnosis.closestParams, live);
}
