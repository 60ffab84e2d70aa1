/**
 * Argument drift: which argument paths of a live call differed from the
 * recorded request that answered it. The journal names that request by its
 * cassette line; the cassette itself holds the recorded arguments. Without
 * a readable cassette of the same header, drift is unknown, and said so.
 *
 * @module
 */
import { loadCassette } from "../cassette/reader.ts";
import type { JournalEntry } from "../replay/journal.ts";
import { listMessages } from "../surface/mod.ts";
import { isObject } from "../util/helpers.ts";
import { describeError } from "../errors/errors.ts";
import { headerSha256 } from "../view/reports.ts";

/** The recorded arguments of each client request, by cassette line and name. */
export interface RecordedArguments {
  /** The SHA-256 of the cassette's first line (what reports name it by). */
  headerSha256: string;
  /** `line name` → the request's arguments (as the journal keeps them). */
  byLine: Map<string, unknown>;
}

/** What a journal entry names: a tool, prompt or resource. */
export function nameOf(entry: { tool?: string; prompt?: string; resource?: string }): string {
  return entry.tool ?? entry.prompt ?? entry.resource ?? "";
}

function argumentsOf(method: string, params: unknown): unknown {
  if (method === "tools/call" || method === "prompts/get") {
    return isObject(params) ? params.arguments : undefined;
  }
  return params;
}

function recordedName(method: string, params: unknown): string {
  if (!isObject(params)) return "";
  const value = method === "tools/call" || method === "prompts/get" ? params.name : params.uri;
  return typeof value === "string" ? value : "";
}

/** Reads the cassette's recorded requests; a reason instead when it cannot be read. */
export async function readRecorded(path: string): Promise<RecordedArguments | string> {
  let cassette;
  try {
    cassette = await loadCassette(path);
  } catch (error) {
    return `the cassette cannot be read: ${describeError(error).split("\n")[0]}`;
  }
  const byLine = new Map<string, unknown>();
  for (const message of listMessages(cassette.entries)) {
    if (message.dir !== "c2s" || message.kind !== "request" || !message.method) continue;
    const params = isObject(message.msg) ? message.msg.params : undefined;
    byLine.set(
      `${message.line} ${recordedName(message.method, params)}`,
      argumentsOf(message.method, params),
    );
  }
  return { headerSha256: headerSha256(cassette), byLine };
}

function join(parent: string, step: string | number): string {
  if (typeof step === "number") return `${parent}[${step}]`;
  return /^[A-Za-z_$][\w$]*$/.test(step)
    ? (parent ? `${parent}.${step}` : step)
    : `${parent}[${JSON.stringify(step)}]`;
}

/** Collects the paths (`a.b[0]`) where two JSON values differ; `$` for the whole value. */
export function differingPaths(recorded: unknown, live: unknown, at = "", out: string[] = []) {
  if (Array.isArray(recorded) && Array.isArray(live)) {
    const length = Math.max(recorded.length, live.length);
    for (let i = 0; i < length; i++) differingPaths(recorded[i], live[i], join(at, i), out);
  } else if (isObject(recorded) && isObject(live)) {
    const keys = new Set([...Object.keys(recorded), ...Object.keys(live)]);
    for (const key of [...keys].sort()) {
      differingPaths(recorded[key], live[key], join(at, key), out);
    }
  } else if (JSON.stringify(recorded) !== JSON.stringify(live)) {
    out.push(at || "$");
  }
  return out;
}

/**
 * The paths where a journal entry's arguments differ from the recording that
 * answered it, or for a miss from the closest one (`closestLine`) when it
 * names the same tool; undefined without either.
 */
export function entryDrift(
  entry: JournalEntry,
  recorded: RecordedArguments,
  closestLine?: number,
): string[] | undefined {
  const line = entry.line ?? closestLine;
  if (line === undefined) return undefined;
  const key = `${line} ${nameOf(entry)}`;
  if (!recorded.byLine.has(key)) return undefined;
  return differingPaths(recorded.byLine.get(key), entry.arguments);
}
