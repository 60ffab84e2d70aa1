/**
 * MCL111, markup-in-name: the names and ids a cassette carries that are
 * never markup nor prose (JSON-RPC methods and string ids, tool and prompt
 * names asked for, session names and ids, HTTP methods, paths and header
 * names, SSE event names and ids) hold no `<`, `>`, quote, backtick, `&` or
 * control character. One that does was crafted, most likely to reach a page
 * or a terminal that shows it.
 *
 * @module
 */
import type { LocatedEntry } from "../cassette/reader.ts";
import { pointerToken } from "../surface/mod.ts";
import { isObject } from "../util/helpers.ts";
import type { Finding } from "./types.ts";

// deno-lint-ignore no-control-regex -- control characters are what is looked for
const MARKUP = /[<>"'`&\u0000-\u001F\u007F-\u009F]/u;

/** One named value to look at: where it is and what it is. */
type Named = [pointer: string, what: string, value: unknown];

/** The markup or control character in `text`, described; undefined when there is none. */
export function markupIn(text: string): string | undefined {
  const match = MARKUP.exec(text);
  if (!match) return undefined;
  const code = `U+${match[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}`;
  const shown = match[0].charCodeAt(0) < 0x20 || match[0].charCodeAt(0) >= 0x7f
    ? "control character"
    : JSON.stringify(match[0]);
  return `${shown} (${code}) at character ${match.index}`;
}

function messageNames(message: unknown, at: string): Named[] {
  if (!isObject(message)) return [];
  const named: Named[] = [["/method", "method", message.method], ["/id", "id", message.id]];
  const params = message.params;
  if (isObject(params) && (message.method === "tools/call" || message.method === "prompts/get")) {
    named.push([
      "/params/name",
      `${message.method === "tools/call" ? "tool" : "prompt"} name`,
      params.name,
    ]);
  }
  return named.map(([pointer, what, value]) => [at + pointer, what, value]);
}

function headerNames(headers: unknown, at: string): Named[] {
  if (!isObject(headers)) return [];
  return Object.keys(headers).map((name) => [`${at}/${pointerToken(name)}`, "header name", name]);
}

function sseNames(sse: unknown): Named[] {
  if (!isObject(sse)) return [];
  return [["/sse/event", "SSE event name", sse.event], ["/sse/id", "SSE event id", sse.id]];
}

/** The names and ids of one entry. */
function namesOf(entry: LocatedEntry): Named[] {
  const named: Named[] = [["/session", "session name", entry.session]];
  switch (entry.type) {
    case "message": {
      const msg = entry.msg;
      if (Array.isArray(msg)) {
        msg.forEach((one, i) => named.push(...messageNames(one, `/msg/${i}`)));
      } else named.push(...messageNames(msg, "/msg"));
      named.push(...sseNames(entry.sse));
      break;
    }
    case "session":
      named.push(["/sessionId", "session id", entry.sessionId]);
      break;
    case "http-request":
      named.push(["/method", "HTTP method", entry.method], ["/path", "HTTP path", entry.path]);
      named.push(...headerNames(entry.headers, "/headers"));
      break;
    case "http-response":
      named.push(...headerNames(entry.headers, "/headers"));
      break;
    case "sse-event":
      named.push(...sseNames(entry.sse));
      break;
  }
  return named;
}

/** MCL111 findings of one entry. */
export function markupNameFindings(file: string, entry: LocatedEntry): Finding[] {
  const findings: Finding[] = [];
  for (const [pointer, what, value] of namesOf(entry)) {
    if (typeof value !== "string") continue;
    const problem = markupIn(value);
    if (!problem) continue;
    findings.push({
      rule: "MCL111",
      severity: "error",
      message: `a ${what} holds a ${problem}: names are never markup`,
      file,
      line: entry.line,
      pointer,
      excerpt: JSON.stringify(value.length > 80 ? value.slice(0, 79) + "…" : value),
    });
  }
  return findings;
}
