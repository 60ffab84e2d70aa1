/**
 * Explains a replay miss: the closest recorded request and exactly which
 * component differs (method, tool name, or the JSON path inside the params).
 *
 * @module
 */
import { firstDifference } from "../json.ts";

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
  /** Where the closest recorded request is in the list it was chosen from. */
  closestIndex?: number;
}

function short(value: unknown): string {
  const text = JSON.stringify(value) ?? "undefined";
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
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
          methods.slice(0, 8).join(", ")
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
            names.slice(0, 8).join(", ")
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
  // The candidate whose first difference lies deepest is the nearest miss.
  let best: { key: RequestKey; path: string; before: unknown; after: unknown } | undefined;
  for (const key of candidates) {
    const difference = firstDifference(key.params, wanted.params, "params");
    if (!difference) continue;
    const depth = difference.path.split(/[.[]/).length;
    if (!best || depth > best.path.split(/[.[]/).length) best = { key, ...difference };
  }
  if (!best) return { message: `No recorded answer for ${describeKey(wanted)}` };
  return {
    message: `No recorded answer for ${
      describeKey(wanted)
    }: closest recording differs at ${best.path} (recorded ${short(best.before)}, got ${
      short(best.after)
    })`,
    closest: best.key.key,
    key: best.key,
    differs: best.path,
    before: best.before,
    after: best.after,
  };
}
