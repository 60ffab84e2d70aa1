/**
 * The pieces the expectations are made of: whether arguments contain a
 * subset (and where they first differ), and how a failure is worded.
 *
 * @module
 */
import { AssertionError } from "node:assert";
import type { JournalEntry } from "../replay/journal.ts";

/** An expectation about the journal that did not hold; its message is the diff. */
export class ExpectationError extends AssertionError {
  constructor(message: string, actual: unknown, expected: unknown) {
    super({ message, actual, expected, operator: "expectation" });
    this.name = "ExpectationError";
  }
}

/**
 * Where `actual` first fails to contain `subset` (`$` for the whole value),
 * or undefined when it does. Objects: every key of the subset, recursively
 * (others allowed); arrays: the same length, element by element; anything
 * else: equal.
 */
export function subsetDifference(actual: unknown, subset: unknown, at = "$"): string | undefined {
  if (Array.isArray(subset)) {
    if (!Array.isArray(actual) || actual.length !== subset.length) return at;
    for (let i = 0; i < subset.length; i++) {
      const found = subsetDifference(actual[i], subset[i], `${at}[${i}]`);
      if (found) return found;
    }
    return undefined;
  }
  if (subset !== null && typeof subset === "object") {
    if (actual === null || typeof actual !== "object" || Array.isArray(actual)) return at;
    for (const [key, value] of Object.entries(subset)) {
      const found = subsetDifference(
        (actual as Record<string, unknown>)[key],
        value,
        `${at}.${key}`,
      );
      if (found) return found;
    }
    return undefined;
  }
  return Object.is(actual, subset) ? undefined : at;
}

/** The value at a path `subsetDifference` returned. */
export function valueAt(value: unknown, path: string): unknown {
  const steps = path.slice(1).match(/\.[^.[]+|\[\d+\]/g) ?? [];
  let at = value;
  for (const step of steps) {
    if (at === null || typeof at !== "object") return undefined;
    const key = step.startsWith("[") ? Number(step.slice(1, -1)) : step.slice(1);
    at = (at as Record<string | number, unknown>)[key];
  }
  return at;
}

/** JSON, cut at 100 characters. */
export function brief(value: unknown): string {
  const text = value === undefined ? "(absent)" : JSON.stringify(value) ?? String(value);
  return text.length > 100 ? `${text.slice(0, 97)}...` : text;
}

/** One journal entry as a line: its place, method, name, arguments, outcome and line. */
export function entryLine(entry: JournalEntry, index: number): string {
  const name = entry.tool ?? entry.prompt ?? entry.resource;
  const args = entry.arguments === undefined ? "" : ` ${brief(entry.arguments)}`;
  const line = entry.line === undefined ? "" : `, line ${entry.line}`;
  return `#${index + 1} ${entry.method}${name ? ` ${name}` : ""}${args} (${entry.outcome}${line})`;
}

/** `n call(s)` in words. */
export function times(n: number): string {
  return n === 1 ? "1 time" : `${n} times`;
}
