/**
 * Small checks shared by the playbook's parsers.
 *
 * @module
 */
import type { Json, JsonObject } from "../jsonrpc/messages.ts";
import { isObject } from "../util/helpers.ts";

/** Reports a problem at a place in the playbook (never returns). */
export type Fail = (problem: string) => never;

/** A non-empty string field, or a failure naming it. */
export function needString(value: unknown, what: string, fail: Fail): string {
  if (typeof value !== "string" || value === "") return fail(`${what} must be a non-empty string`);
  return value;
}

/** An optional object field (TOML dates and such are not JSON: refused). */
export function optionalObject(value: unknown, what: string, fail: Fail): JsonObject | undefined {
  if (value === undefined) return undefined;
  if (!isObject(value)) return fail(`${what} must be an object`);
  return asJson(value, what, fail) as JsonObject;
}

/** Checks that a parsed value is plain JSON (TOML can hold dates). */
export function asJson(value: unknown, what: string, fail: Fail): Json {
  if (value === null || typeof value === "string" || typeof value === "boolean") return value;
  if (typeof value === "number") {
    return Number.isFinite(value) ? value : fail(`${what} holds a number JSON cannot carry`);
  }
  if (Array.isArray(value)) return value.map((item, i) => asJson(item, `${what}[${i}]`, fail));
  if (isObject(value) && !(value instanceof Date)) {
    const out: JsonObject = {};
    for (const [key, item] of Object.entries(value)) {
      out[key] = asJson(item, `${what}.${key}`, fail);
    }
    return out;
  }
  return fail(`${what} holds a value JSON cannot carry`);
}
