/**
 * Explains a replay miss: the closest recorded request and exactly which
 * component differs (method, tool name, or the JSON path inside the params).
 *
 * @module
 */
import { firstDifference, pathStep } from "../json/values.ts";
import type { Difference } from "../json/values.ts";

import type { RequestKey } from "./fingerprint.ts";

/** Why a request has no recorded answer. */
export interface MissDiagnosis {
  /** One line for the client and the report. */
  message: string;
  /** The closest recorded request's key, if any was recorded. */
  closest?: string;
  /** What differs: `method`, `name`, or a JSON path inside the params. */
  differs?: string;
  before?: unknown;
  after?: unknown;
  /** Every difference from the closest recording (the first is `differs`), at most 16. */
  differences?: Difference[];
  /** Where the closest recorded request is in the list it was chosen from. */
  closestIndex?: number;
}

function short(value: unknown): string {
  const text = JSON.stringify(value) ?? "undefined";
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

/** The most differences a miss names. */
const MOST_DIFFERENCES = 16;
/** The most recorded methods or names a miss lists. */
const MOST_LISTED = 8;

/** `items`, comma-separated, cut to the first few with how many more were left out. */
function listed(items: readonly unknown[]): string {
  const shown = items.slice(0, MOST_LISTED).join(", ");
  return items.length > MOST_LISTED ? `${shown} and ${items.length - MOST_LISTED} more` : shown;
}

/**
 * Every difference between `a` and `b`, depth first (keys in order), up to
 * {@linkcode MOST_DIFFERENCES}: each value that differs, or that one side lacks.
 */
function differences(a: unknown, b: unknown, path: string, out: Difference[]): void {
  if (out.length >= MOST_DIFFERENCES || !firstDifference(a, b, path)) return;
  const bothObjects = a !== null && b !== null && typeof a === "object" && typeof b === "object" &&
    Array.isArray(a) === Array.isArray(b);
  if (!bothObjects) {
    out.push({ path, before: a, after: b });
    return;
  }
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  if (Array.isArray(a)) {
    const length = Math.max(a.length, (b as unknown[]).length);
    for (let i = 0; i < length; i++) differences(left[i], right[i], `${path}[${i}]`, out);
    return;
  }
  const keys = [...new Set([...Object.keys(left), ...Object.keys(right)])].sort();
  for (const key of keys) differences(left[key], right[key], path + pathStep(key), out);
}

function describeKey(key: RequestKey): string {
  return key.name !== undefined ? `${key.method} "${key.name}"` : key.method;
}

/** Finds the recorded request nearest to `wanted` and names the difference. */
export function diagnoseMiss(wanted: RequestKey, recorded: readonly RequestKey[]): MissDiagnosis {
  const what = describeKey(wanted);
  if (recorded.length === 0) {
    return { message: `No recorded answer for ${what}: the cassette holds no requests` };
  }
  const sameMethod = recorded.filter((key) => key.method === wanted.method);
  if (sameMethod.length === 0) {
    const methods = [...new Set(recorded.map((key) => key.method))].sort();
    return {
      message:
        `No recorded answer for ${what}: method "${wanted.method}" was never recorded (recorded: ${
          listed(methods)
        })`,
      closest: methods[0],
      differs: "method",
    };
  }
  if (wanted.name !== undefined) {
    const sameName = sameMethod.filter((key) => key.name === wanted.name);
    if (sameName.length === 0) {
      const names = [
        ...new Set(sameMethod.map((key) => key.name).filter((name) => name !== undefined)),
      ];
      return {
        message:
          `No recorded answer for ${what}: name "${wanted.name}" was never recorded for ${wanted.method} (recorded: ${
            listed(names)
          })`,
        closest: describeKey(sameMethod[0]),
        closestIndex: recorded.indexOf(sameMethod[0]),
        differs: "name",
        before: sameMethod[0].name,
        after: wanted.name,
      };
    }
    return withIndex(closestByParams(wanted, sameName), recorded);
  }
  return withIndex(closestByParams(wanted, sameMethod), recorded);
}

function withIndex(
  diagnosis: MissDiagnosis & { key?: RequestKey },
  recorded: readonly RequestKey[],
) {
  const { key, ...rest } = diagnosis;
  return key ? { ...rest, closestIndex: recorded.indexOf(key) } : rest;
}

function closestByParams(
  wanted: RequestKey,
  candidates: readonly RequestKey[],
): MissDiagnosis & { key?: RequestKey } {
  // The nearest miss: the fewest differences, then the deepest first one.
  let best: { key: RequestKey; all: Difference[]; depth: number } | undefined;
  for (const key of candidates) {
    const all: Difference[] = [];
    differences(key.params, wanted.params, "params", all);
    if (all.length === 0) continue;
    const depth = all[0].path.split(/[.[]/).length;
    if (
      !best || all.length < best.all.length ||
      (all.length === best.all.length && depth > best.depth)
    ) best = { key, all, depth };
  }
  if (!best) return { message: `No recorded answer for ${describeKey(wanted)}` };
  const [first] = best.all;
  const named = best.all.map((difference) =>
    `${difference.path} (recorded ${short(difference.before)}, got ${short(difference.after)})`
  );
  const more = best.all.length >= MOST_DIFFERENCES ? " and maybe more" : "";
  return {
    message: `No recorded answer for ${describeKey(wanted)}: closest recording differs at ${
      named.join(", ")
    }${more}`,
    closest: best.key.key,
    key: best.key,
    differs: first.path,
    before: first.before,
    after: first.after,
    differences: best.all,
  };
}
