/**
 * Small helpers every part of the code base uses, in one place.
 *
 * @module
 */
import type { JsonObject } from "../jsonrpc/messages.ts";

/** Resolves after `ms` milliseconds (at once for zero or less). */
export function sleep(ms: number): Promise<void> {
  return ms > 0 ? new Promise((resolve) => setTimeout(resolve, ms)) : Promise.resolve();
}

/** True for a JSON object: not null, not an array. */
export function isObject(value: unknown): value is JsonObject {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** `value` when it is a JSON object, else an empty one: for fields a peer may leave out or garble. */
export function asObject(value: unknown): JsonObject {
  return isObject(value) ? value : {};
}
