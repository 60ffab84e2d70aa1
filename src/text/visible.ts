/**
 * Text from a cassette, a server or a file, made safe to show: the control
 * characters a terminal acts on (C0 but tab and newline, DEL, C1, whose
 * U+009B is a one-character CSI), the bidirectional controls that reorder
 * what is read, and the line and paragraph separators, each written as a
 * `\uXXXX` escape. The escape is JSON's own, so JSON text stays valid JSON
 * of the same value; other text shows what was there instead of doing it.
 * `lint` finds the same characters in server text (MCL105).
 *
 * @module
 */
import { STYLES } from "./paint.ts";

/** One control character as the `lint` rule MCL105 finds it. */
// deno-lint-ignore no-control-regex -- finding control characters is the point
export const CONTROL_CHARACTER = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/u;

// deno-lint-ignore no-control-regex -- escaping control characters is the point
const UNSAFE = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u2028\u2029\u202A-\u202E\u2066-\u2069]/g;
/** {@linkcode UNSAFE} without the g flag's state, for a test. */
const ANY_UNSAFE = new RegExp(UNSAFE.source);

function escaped(char: string): string {
  return `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`;
}

/**
 * `text` with every character a terminal would act on (or that reorders
 * what is read) escaped as `\uXXXX`; tabs and newlines are kept.
 *
 * @example
 * ```ts
 * visible("tool\x1b[2J"); // "tool\\u001b[2J"
 * ```
 */
export function visible(text: string): string {
  return ANY_UNSAFE.test(text) ? text.replace(UNSAFE, escaped) : text;
}

/** Our own colour codes (src/text/paint.ts) and its reset, exactly. */
const OWN_STYLE = new RegExp(
  `(${[...Object.values(STYLES), "\x1b[0m"].map((code) => code.replace("[", "\\[")).join("|")})`,
);

/**
 * {@linkcode visible} for a report that may carry our own colour codes:
 * those pass, every other control character is escaped.
 */
export function terminalText(text: string): string {
  if (!ANY_UNSAFE.test(text)) return text;
  return text.split(OWN_STYLE).map((part, i) => i % 2 === 1 ? part : visible(part)).join("");
}
