/**
 * A request id goes back exactly as the client wrote it. `JSON.parse` keeps
 * a number's value, not its text: `12345678901234567890` comes back as
 * `12345678901234567000` and `7.0` as `7`, and a client waiting for its own
 * id would wait for ever. When the id's text is not what `JSON.stringify`
 * writes for the parsed number, the answer to it gets the client's text back;
 * every other id costs one scan of its line for the `id` member.
 *
 * @module
 */
import { elementSpans, memberSpan } from "../json/text.ts";
import type { JsonRpcMessage } from "../jsonrpc/messages.ts";
import { overriding } from "./outlet.ts";
import type { Outlet } from "./outlet.ts";

/** The id's own text in `text` (one message), when parsing lost it; otherwise undefined. */
export function lostIdText(text: string, message: unknown): string | undefined {
  const id = (message as { id?: unknown } | null)?.id;
  if (typeof id !== "number") return undefined;
  const own = quickIdText(text) ?? topLevelNumber(text, 0x69, 0x64);
  return own === undefined || own === String(id) ? undefined : own;
}

/**
 * The id's text found with the runtime's own string search, where the line
 * shows it is the top-level id: the first `"id"` with no object or array
 * opened before it (`{"jsonrpc":"2.0","id":7,…`), or the last one with
 * nothing but the closing brace after its value (`…,"id":7}`). Undefined
 * when neither tells; the caller then scans.
 */
function quickIdText(text: string): string | undefined {
  const first = text.indexOf('"id"');
  if (first < 0) return undefined;
  const open = text.indexOf("{");
  const object = text.indexOf("{", open + 1);
  const array = text.indexOf("[", open + 1);
  if ((object < 0 || object > first) && (array < 0 || array > first)) {
    const value = numberAfterColon(text, first + 4);
    if (value) return text.slice(value.start, value.end);
  }
  const last = text.lastIndexOf('"id"');
  const value = numberAfterColon(text, last + 4);
  if (!value) return undefined;
  let at = value.end;
  while (isSpace(text.charCodeAt(at))) at++;
  if (text.charCodeAt(at) !== 0x7d) return undefined;
  at++;
  while (isSpace(text.charCodeAt(at))) at++;
  return at === text.length ? text.slice(value.start, value.end) : undefined;
}

/**
 * The number under the two-letter key `a``b` of the object `text` holds (at
 * its top level), or undefined. One pass of character codes, on every
 * request with a numeric id: json_text.ts's member walk took as long as
 * `JSON.parse` of the line.
 */
function topLevelNumber(text: string, a: number, b: number): string | undefined {
  let depth = 0;
  for (let at = 0; at < text.length; at++) {
    const code = text.charCodeAt(at);
    if (code === 0x22) {
      const start = at;
      for (at++; at < text.length; at++) {
        const inner = text.charCodeAt(at);
        if (inner === 0x5c) at++;
        else if (inner === 0x22) break;
      }
      const isKey = depth === 1 && at - start === 3 && text.charCodeAt(start + 1) === a &&
        text.charCodeAt(start + 2) === b;
      if (isKey) {
        const value = numberAfterColon(text, at + 1);
        if (value) return text.slice(value.start, value.end);
      }
    } else if (code === 0x7b || code === 0x5b) depth++;
    else if (code === 0x7d || code === 0x5d) depth--;
  }
  return undefined;
}

/** Where the number after `:` (spaces allowed around it) from `at` is, or undefined when none follows. */
function numberAfterColon(text: string, at: number): { start: number; end: number } | undefined {
  while (isSpace(text.charCodeAt(at))) at++;
  if (text.charCodeAt(at) !== 0x3a) return undefined;
  at++;
  while (isSpace(text.charCodeAt(at))) at++;
  const start = at;
  while (at < text.length && isNumberChar(text.charCodeAt(at))) at++;
  return at > start ? { start, end: at } : undefined;
}

/** A character of a JSON number: a digit, `+`, `-`, `.`, `e` or `E`. */
function isNumberChar(code: number): boolean {
  return (code >= 0x30 && code <= 0x39) || code === 0x2b || code === 0x2d || code === 0x2e ||
    code === 0x65 || code === 0x45;
}

function isSpace(code: number): boolean {
  return code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09;
}

/** Each batch member's own text, or undefined when no member has a numeric id. */
export function memberTexts(text: string, batch: readonly unknown[]): string[] | undefined {
  const numeric = batch.some((member) =>
    typeof (member as { id?: unknown } | null)?.id === "number"
  );
  if (!numeric) return undefined;
  const spans = elementSpans(text);
  return spans.length === batch.length
    ? spans.map((span) => text.slice(span.start, span.end))
    : undefined;
}

/**
 * `outlet`, writing `own` as the id of the answer to request `id` (the
 * server's own requests and notifications meanwhile pass as they are).
 */
export function keepingIdText(outlet: Outlet, id: number, own: string): Outlet {
  return overriding(outlet, {
    sendText: undefined, // The answer's id is rewritten, below.
    send: (message, sse, text) => {
      if (!answers(message, id)) return outlet.send(message, sse, text);
      const wire = text ?? JSON.stringify(message);
      const span = memberSpan(wire, ["id"]);
      const exact = span ? wire.slice(0, span.start) + own + wire.slice(span.end) : wire;
      return outlet.send(message, sse, exact);
    },
  });
}

function answers(message: JsonRpcMessage, id: number): boolean {
  return message.method === undefined && message.id === id;
}
