/**
 * A message entry's frame text: the JSON-RPC message exactly as it crossed
 * the wire. Since format version 2 a message entry's `msg` is that text,
 * embedded as the entry's last member; replay sends it back byte for byte
 * (only the id, and a progress token, replaced by the live ones).
 *
 * The text is kept beside the entry, not on it: entries are copied with
 * spread (`{ ...entry, msg: redacted }`), and a copy must not carry a text
 * that no longer matches its `msg`. Only a text that differs from
 * `JSON.stringify(msg)` is kept at all — the rest would cost memory for
 * nothing.
 *
 * @module
 */
import type { Direction, Entry, MessageEntry } from "./format.ts";
import type { Json } from "../jsonrpc/messages.ts";
import { patchJsonText } from "../json/text.ts";

const texts = new WeakMap<MessageEntry, string>();

/**
 * Marks `text` as the wire text of `entry` (whose `msg` is its value): only
 * when it differs from the serialised message, unless `always`.
 */
export function keepFrameText(entry: MessageEntry, text: string, always = false): void {
  if (always || text !== JSON.stringify(entry.msg)) texts.set(entry, text);
}

/** The wire text of a message entry. */
export function frameText(entry: MessageEntry): string {
  return texts.get(entry) ?? JSON.stringify(entry.msg);
}

/** The kept wire text, when it differs from the serialised `msg`. */
export function keptFrameText(entry: MessageEntry): string | undefined {
  return texts.get(entry);
}

/**
 * The frame text to keep for a message parsed from `text` as `msg` and
 * redacted to `redacted`: the text as it came when redaction changed
 * nothing, else the text with only the redacted values written anew.
 */
export function ownFrameText(text: string, msg: Json, redacted: Json): string {
  const trimmed = text.trim();
  if (redacted === msg || JSON.stringify(redacted) === JSON.stringify(msg)) return trimmed;
  return patchJsonText(trimmed, redacted);
}

const MSG_MEMBER = '"msg":';

/**
 * Where the text of `msg` lies inside a cassette line whose parsed form is
 * `entry`, when `msg` is the line's last member (as this build writes it):
 * between `"msg":` and the closing brace, spaces trimmed. The first `"msg":`
 * in a line is a key (inside a JSON string the quote after `msg` would be
 * escaped), and the members before `msg` are the entry's own flat fields.
 */
export function msgSpanOfLine(
  line: string,
  entry: MessageEntry,
): { start: number; end: number } | undefined {
  let last: string | undefined;
  for (const key in entry) last = key;
  if (last !== "msg") return undefined;
  let start = line.indexOf(MSG_MEMBER);
  let end = line.lastIndexOf("}");
  if (start < 0 || end <= start) return undefined;
  start += MSG_MEMBER.length;
  while (start < end && isSpace(line.charCodeAt(start))) start++;
  while (end > start && isSpace(line.charCodeAt(end - 1))) end--;
  return { start, end };
}

/** JSON's whitespace (what may stand between `"msg":` and the value). */
function isSpace(code: number): boolean {
  return code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0d;
}

/** The text of `msg` inside a cassette line (see {@linkcode msgSpanOfLine}). */
export function msgTextOfLine(line: string, entry: MessageEntry): string | undefined {
  const span = msgSpanOfLine(line, entry);
  return span && line.slice(span.start, span.end);
}

/**
 * The cassette line of a message entry whose message is `text`, a frame's
 * own text: fields in the order the recorders give them, `msg` last.
 */
export function messageLine(
  text: string,
  fields: {
    dir: Direction;
    t: number;
    session?: string;
    x?: number;
    sse?: unknown;
    appended?: true;
  },
): string {
  const { dir, t, session, x, sse, appended } = fields;
  let line = `{"type":"message","t":${JSON.stringify(t)}`;
  if (session !== undefined) line += `,"session":${JSON.stringify(session)}`;
  if (x !== undefined) line += `,"x":${JSON.stringify(x)}`;
  if (appended) line += `,"appended":true`;
  line += `,"dir":"${dir}"`;
  if (sse !== undefined) line += `,"sse":${JSON.stringify(sse)}`;
  return `${line},"msg":${text}}`;
}

/**
 * One entry as its cassette line (no newline), keeping a message's frame
 * text: embedded as `msg` when it fits on one line, else (a pretty-printed
 * HTTP body, a frame with a carriage return inside) as the string `frame`
 * beside the serialised `msg`.
 */
export function entryText(entry: Entry): string {
  if (entry.type !== "message") return JSON.stringify(entry);
  const text = texts.get(entry);
  if (text === undefined) return JSON.stringify(entry);
  if (/[\r\n]/.test(text)) return JSON.stringify({ ...entry, frame: text });
  // Fields this module does not place by name go through JSON, before msg.
  for (const key in entry) {
    if (PLACED.has(key)) continue;
    const { type: _type, msg: _msg, ...rest } = entry;
    const head = JSON.stringify({ type: "message", ...rest });
    return `${head.slice(0, -1)},"msg":${text}}`;
  }
  return messageLine(text, entry);
}

/** The fields of a message entry that {@linkcode messageLine} writes by name. */
const PLACED = new Set(["type", "msg", "t", "session", "x", "sse", "dir", "appended"]);

/**
 * Takes a `frame` member off a parsed entry and keeps it as the entry's
 * frame text. Returns an error message when it is there but is not the
 * JSON text of a value.
 */
export function adoptFrameMember(entry: MessageEntry): string | undefined {
  const frame = (entry as { frame?: unknown }).frame;
  if (frame === undefined) return undefined;
  delete (entry as { frame?: unknown }).frame;
  if (typeof frame !== "string") return `"frame" must be a string`;
  try {
    JSON.parse(frame);
  } catch (error) {
    return `the frame text is not valid JSON (${(error as Error).message})`;
  }
  keepFrameText(entry, frame);
  return undefined;
}
