/**
 * Small JSON helpers shared by matching, verify and diff: a stable
 * stringification and a structural comparison that names the first path
 * where two values differ.
 *
 * @module
 */
import type { Json } from "../jsonrpc/messages.ts";

/** JSON.stringify with object keys sorted at every depth, so key order never changes the text. */
export function stableStringify(value: unknown): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value) ?? "null";
  if (Array.isArray(value)) return `[${value.map(stableStringify).join(",")}]`;
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record).filter((key) => record[key] !== undefined).sort();
  return `{${
    keys.map((key) => `${JSON.stringify(key)}:${stableStringify(record[key])}`).join(",")
  }}`;
}

/** Structural equality of two JSON values (key order ignored). */
export function jsonEqual(a: unknown, b: unknown): boolean {
  return firstDifference(a, b) === undefined;
}

/** Where two values first differ. */
export interface Difference {
  /** A JSONPath-like path such as `$.arguments.items[2].name`. */
  path: string;
  before: unknown;
  after: unknown;
}

/** Formats a property step of a path. */
export function pathStep(key: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(key) ? `.${key}` : `[${JSON.stringify(key)}]`;
}

/** Returns the first difference between `a` and `b`, depth first, or undefined when equal. */
export function firstDifference(a: unknown, b: unknown, path = "$"): Difference | undefined {
  if (a === b) return undefined;
  if (typeof a !== typeof b || a === null || b === null || typeof a !== "object") {
    return { path, before: a, after: b };
  }
  if (Array.isArray(a) !== Array.isArray(b)) return { path, before: a, after: b };
  if (Array.isArray(a)) {
    const other = b as unknown[];
    for (let i = 0; i < Math.min(a.length, other.length); i++) {
      const difference = firstDifference(a[i], other[i], `${path}[${i}]`);
      if (difference) return difference;
    }
    if (a.length !== other.length) {
      const i = Math.min(a.length, other.length);
      return { path: `${path}[${i}]`, before: a[i], after: other[i] };
    }
    return undefined;
  }
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  const keys = [...new Set([...Object.keys(left), ...Object.keys(right)])].sort();
  for (const key of keys) {
    const difference = firstDifference(left[key], right[key], path + pathStep(key));
    if (difference) return difference;
  }
  return undefined;
}

/**
 * Sets `key` on `target` as its own property. A key is any string in JSON,
 * "__proto__" included, and assigning that one sets the prototype instead
 * on Node and Bun (Deno removes the accessor), losing the key.
 */
export function setOwn<T>(target: Record<string, T>, key: string, value: T): void {
  if (key === "__proto__") {
    Object.defineProperty(target, key, {
      value,
      writable: true,
      enumerable: true,
      configurable: true,
    });
  } else target[key] = value;
}

/** Parses JSON, returning undefined instead of throwing. */
export function tryParseJson(text: string): { value: Json } | undefined {
  try {
    return { value: JSON.parse(text) as Json };
  } catch {
    return undefined;
  }
}

/** A deep copy of a JSON value. */
export function cloneJson<T>(value: T): T {
  return value === undefined ? value : JSON.parse(JSON.stringify(value));
}
