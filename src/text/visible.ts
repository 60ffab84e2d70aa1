/**
 * Text from a file or a peer, made safe to print on a terminal: control
 * characters (an escape sequence could move the cursor or recolour what
 * follows) are shown as `\u001b`-style escapes.
 *
 * @module
 */

// deno-lint-ignore no-control-regex -- the control characters are what is replaced
const CONTROL = /[\u0000-\u001F\u007F-\u009F]/g;

/** `text` with each C0/C1 control character and DEL shown as a `\uXXXX` escape. */
export function visible(text: string): string {
  return text.replace(CONTROL, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`);
}
