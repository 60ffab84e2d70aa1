/**
 * Paths a user declares volatile (`--match-ignore params.arguments.request_id`):
 * removed from a request before its key is computed, never from an answer.
 *
 * A path starts at `params` and steps through object keys with `.key` or
 * `["key"]`, array elements with `[N]`, and any key or element with `*` (or
 * `[*]`): `params.arguments.*.timestamp` drops `timestamp` from every object
 * directly under the arguments.
 *
 * @module
 */
import { UsageError } from "../errors/errors.ts";
import type { Json, JsonObject, JsonRpcMessage } from "../jsonrpc/messages.ts";
import { setOwn } from "../json/values.ts";

/** One step of a path: a key, an index, or any. */
export type PathStep = string | number | typeof ANY;

/** The wildcard step. */
export const ANY: unique symbol = Symbol("any");

/** A parsed path, below `params`. */
export interface IgnorePath {
  text: string;
  steps: PathStep[];
}

const STEP = /^(?:\.([A-Za-z_$][\w$-]*|\*)|\[(\d+|\*|"(?:[^"\\]|\\.)*")\])/;

/**
 * Parses a path; a path that does not start at `params`, is empty below it,
 * or does not parse is a {@linkcode UsageError} naming `source` (the flag or
 * file it came from).
 *
 * @example
 * ```ts
 * const path = parseIgnorePath("params.arguments.*.timestamp", "--match-ignore");
 * path.steps.length; // 3
 * ```
 */
export function parseIgnorePath(text: string, source: string): IgnorePath {
  const fail = (why: string) =>
    new UsageError(`${source} ${JSON.stringify(text)}: ${why} (e.g. params.arguments.request_id)`);
  if (!text.startsWith("params")) throw fail("a path starts at params");
  const steps: PathStep[] = [];
  let rest = text.slice("params".length);
  while (rest.length > 0) {
    const found = STEP.exec(rest);
    if (!found) throw fail(`cannot read the path at ${JSON.stringify(rest)}`);
    const [whole, name, bracket] = found;
    if (name !== undefined) steps.push(name === "*" ? ANY : name);
    else if (bracket === "*") steps.push(ANY);
    else if (bracket.startsWith('"')) steps.push(JSON.parse(bracket) as string);
    else steps.push(Number(bracket));
    rest = rest.slice(whole.length);
  }
  if (steps.length === 0) throw fail("the path names nothing below params");
  return { text, steps };
}

/** {@linkcode parseIgnorePath} over a list, each error naming `source`. */
export function parseIgnorePaths(texts: readonly string[], source: string): IgnorePath[] {
  return texts.map((text) => parseIgnorePath(text, source));
}

/**
 * The message with every ignored path removed from a copy of its params
 * (the message itself is not changed); the message itself when no path
 * matches anything.
 */
export function withoutIgnored(
  message: JsonRpcMessage,
  paths: readonly IgnorePath[],
): JsonRpcMessage {
  let params = message.params as Json | undefined;
  if (params === undefined || params === null || typeof params !== "object") return message;
  for (const path of paths) params = dropPath(params, path.steps, 0);
  return params === message.params ? message : { ...message, params: params as JsonObject };
}

/** `value` without what `steps` (from `at`) reach, copied only where something goes. */
function dropPath(value: Json, steps: readonly PathStep[], at: number): Json {
  if (value === null || typeof value !== "object") return value;
  const step = steps[at];
  const last = at === steps.length - 1;
  if (Array.isArray(value)) {
    if (typeof step === "string") return value;
    let copy: Json[] | undefined;
    for (let index = 0; index < value.length; index++) {
      if (step !== ANY && step !== index) continue;
      copy ??= value.slice();
      if (last) copy[index] = null; // An element keeps its place: only its value goes.
      else copy[index] = dropPath(value[index], steps, at + 1);
    }
    return copy ?? value;
  }
  if (typeof step === "number") return value;
  const keys = step === ANY ? Object.keys(value) : Object.hasOwn(value, step) ? [step] : [];
  if (keys.length === 0) return value;
  const copy: JsonObject = {};
  for (const [key, item] of Object.entries(value)) {
    if (!keys.includes(key)) setOwn(copy, key, item);
    else if (!last) setOwn(copy, key, dropPath(item, steps, at + 1));
  }
  return copy;
}
