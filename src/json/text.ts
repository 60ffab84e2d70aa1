/**
 * Work on JSON text without parsing it into values and writing it again:
 * finding a member's value in a frame, replacing it, and carrying changes
 * made to a parsed copy back into the original text. A recorded frame is the
 * server's own words (its number forms, key order, escapes and spacing);
 * re-serialising it turns `9.0` into `9` and a 20-digit integer into a
 * rounded one.
 *
 * The scanner assumes valid JSON text (it only ever sees text that parsed).
 *
 * @module
 */
import type { Json } from "../jsonrpc/messages.ts";

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** A value's place in a text: `text.slice(start, end)` is the value. */
export interface Span {
  start: number;
  end: number;
}

function isSpace(code: number): boolean {
  return code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09;
}

function skipSpace(text: string, at: number): number {
  while (at < text.length && isSpace(text.charCodeAt(at))) at++;
  return at;
}

/** The index just past the string that opens at `at`. */
function stringEnd(text: string, at: number): number {
  let from = at + 1;
  while (true) {
    const quote = text.indexOf('"', from);
    if (quote < 0) return text.length;
    let slashes = 0;
    while (text.charCodeAt(quote - 1 - slashes) === BACKSLASH) slashes++;
    if (slashes % 2 === 0) return quote + 1;
    from = quote + 1;
  }
}

/** The index just past the value that starts at `at` (no leading space). */
export function valueEnd(text: string, at: number): number {
  const first = text.charCodeAt(at);
  if (first === QUOTE) return stringEnd(text, at);
  if (first !== 0x7b && first !== 0x5b) {
    let end = at;
    while (end < text.length) {
      const code = text.charCodeAt(end);
      if (code === 0x2c || code === 0x7d || code === 0x5d || isSpace(code)) break;
      end++;
    }
    return end;
  }
  let depth = 0;
  for (let i = at; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === QUOTE) i = stringEnd(text, i) - 1;
    else if (code === 0x7b || code === 0x5b) depth++;
    else if (code === 0x7d || code === 0x5d) {
      if (--depth === 0) return i + 1;
    }
  }
  return text.length;
}

/** One member of an object in a text. */
interface Member {
  keyStart: number;
  keyEnd: number;
  value: Span;
}

/** The members of the object that opens at `at`, in order. */
function* members(text: string, at: number): Generator<Member> {
  let i = skipSpace(text, at + 1);
  while (i < text.length && text.charCodeAt(i) === QUOTE) {
    const keyEnd = stringEnd(text, i);
    const start = skipSpace(text, skipSpace(text, keyEnd) + 1);
    const end = valueEnd(text, start);
    yield { keyStart: i, keyEnd, value: { start, end } };
    i = skipSpace(text, end);
    if (text.charCodeAt(i) !== 0x2c) return;
    i = skipSpace(text, i + 1);
  }
}

/** The start of each element of the array that opens at `at`. */
function* elements(text: string, at: number): Generator<Span> {
  let i = skipSpace(text, at + 1);
  if (text.charCodeAt(i) === 0x5d) return;
  while (i < text.length) {
    const end = valueEnd(text, i);
    yield { start: i, end };
    i = skipSpace(text, end);
    if (text.charCodeAt(i) !== 0x2c) return;
    i = skipSpace(text, i + 1);
  }
}

/** Each element's place in the array `text` (a top-level array), in order. */
export function elementSpans(text: string): Span[] {
  const at = skipSpace(text, 0);
  return text.charCodeAt(at) === 0x5b ? [...elements(text, at)] : [];
}

function keyOf(text: string, member: Member): string {
  const raw = text.slice(member.keyStart + 1, member.keyEnd - 1);
  return raw.includes("\\") ? JSON.parse(`"${raw}"`) : raw;
}

/**
 * Where the value at `path` (object keys from the top) sits in `text`, or
 * undefined when a step is missing or not an object.
 *
 * @example
 * ```ts
 * const text = '{"id": 7, "result": {}}';
 * const span = memberSpan(text, ["id"])!;
 * text.slice(span.start, span.end); // "7"
 * ```
 */
export function memberSpan(text: string, path: readonly string[]): Span | undefined {
  let at = skipSpace(text, 0);
  let found: Span | undefined;
  for (const step of path) {
    if (text.charCodeAt(at) !== 0x7b) return undefined;
    found = undefined;
    for (const member of members(text, at)) {
      if (keyOf(text, member) === step) found = member.value;
    }
    if (!found) return undefined;
    at = found.start;
  }
  return found;
}

/** `text` with the value at `span` replaced by `replacement`. */
export function spliceSpan(text: string, span: Span, replacement: string): string {
  return text.slice(0, span.start) + replacement + text.slice(span.end);
}

/** Thrown past {@linkcode MAX_PATCH_DEPTH}; the caller serialises instead. */
const tooDeep = new RangeError("JSON text nested too deeply to patch");

/** Deeper than this, {@linkcode patchJsonText} gives up (it recurses). */
export const MAX_PATCH_DEPTH = 200;

/**
 * The text of `updated`, a changed copy of the value `original` is the text
 * of, written as `original` wherever the two agree: only changed values (and
 * renamed keys) are written anew, every other byte is the original's.
 * Objects and arrays whose member count changed are written anew whole.
 * Falls back to `JSON.stringify(updated)` for text nested past
 * {@linkcode MAX_PATCH_DEPTH}.
 */
export function patchJsonText(original: string, updated: Json): string {
  const at = skipSpace(original, 0);
  try {
    return patchValue(original, { start: at, end: valueEnd(original, at) }, updated, 0);
  } catch (error) {
    if (error === tooDeep) return JSON.stringify(updated);
    throw error;
  }
}

function patchValue(text: string, span: Span, updated: Json, depth: number): string {
  if (depth > MAX_PATCH_DEPTH) throw tooDeep;
  const first = text.charCodeAt(span.start);
  if (first === 0x7b) {
    if (updated === null || typeof updated !== "object" || Array.isArray(updated)) {
      return JSON.stringify(updated);
    }
    return patchObject(text, span, updated, depth);
  }
  if (first === 0x5b) {
    if (!Array.isArray(updated)) return JSON.stringify(updated);
    return patchArray(text, span, updated, depth);
  }
  const raw = text.slice(span.start, span.end);
  return JSON.parse(raw) === updated ? raw : JSON.stringify(updated);
}

function patchObject(
  text: string,
  span: Span,
  updated: { [key: string]: Json },
  depth: number,
): string {
  const found = [...members(text, span.start)];
  if (found.length !== Object.keys(updated).length) return JSON.stringify(updated);
  // Members pair by name (an integer-like key is listed first by Object.keys,
  // wherever the text has it); a renamed key takes the next name the text lacks.
  const originalKeys = new Set(found.map((member) => keyOf(text, member)));
  const renamed = Object.keys(updated).filter((key) => !originalKeys.has(key));
  const pairs = found.map((member) => {
    const key = keyOf(text, member);
    return Object.hasOwn(updated, key) ? key : renamed.shift();
  });
  if (pairs.includes(undefined)) return JSON.stringify(updated);
  let out = "";
  let from = span.start;
  found.forEach((member, index) => {
    const key = pairs[index]!;
    const keyText = keyOf(text, member) === key
      ? text.slice(member.keyStart, member.keyEnd)
      : JSON.stringify(key);
    out += text.slice(from, member.keyStart) + keyText +
      text.slice(member.keyEnd, member.value.start) +
      patchValue(text, member.value, updated[key], depth + 1);
    from = member.value.end;
  });
  return out + text.slice(from, span.end);
}

function patchArray(text: string, span: Span, updated: Json[], depth: number): string {
  const found = [...elements(text, span.start)];
  if (found.length !== updated.length) return JSON.stringify(updated);
  let out = "";
  let from = span.start;
  found.forEach((element, index) => {
    out += text.slice(from, element.start) + patchValue(text, element, updated[index], depth + 1);
    from = element.end;
  });
  return out + text.slice(from, span.end);
}
