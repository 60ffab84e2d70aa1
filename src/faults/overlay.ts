/**
 * The fault overlay file: parsing, validation and the normalised shape the
 * injector works from. Two spellings load: ours (`match` + `fault`) and the
 * one the Python mcp-cassette writes (`target` + `type` + `params`).
 * docs/faults.md is the user-facing description.
 *
 * @module
 */
import { parse as parseJsonc, printParseErrorCode } from "jsonc-parser";
import type { ParseError } from "jsonc-parser";
import { CassetteError } from "../errors.ts";
import type { Json } from "../jsonrpc.ts";
import { runtime } from "../runtime/mod.ts";
import type { Fault } from "./types.ts";

/** Which occurrences of a matching request an entry fires on. */
export type NthSelector = "every" | number[];

/** What an overlay entry is aimed at, after validation. */
export interface FaultMatch {
  /** JSON-RPC method; `*` matches any run of characters. */
  method?: string;
  /** Tool name of a `tools/call`; `*` is a wildcard. */
  tool?: string;
  /** Prompt name of a `prompts/get`; `*` is a wildcard. */
  prompt?: string;
  /** Resource URI of a `resources/read` (or subscribe/unsubscribe); `*` is a wildcard. */
  uri?: string;
  /** 1-based occurrences among the requests this entry matches, sorted; or every one. */
  nth: NthSelector;
  /** Chance in [0, 1] that a selected occurrence fires, drawn from the seeded generator. */
  probability?: number;
}

/** One validated overlay entry. */
export interface FaultEntry {
  /** 1-based position in the file, used in every message about it. */
  index: number;
  name?: string;
  match: FaultMatch;
  /** Applied in this order when the entry fires. */
  faults: Fault[];
}

/** A loaded overlay. */
export interface FaultOverlay {
  /** The file it came from (or the name given to {@linkcode parseFaultOverlay}). */
  source: string;
  /** Seed for probabilistic entries, when the file sets one. */
  seed?: number;
  entries: FaultEntry[];
}

/** A fault overlay that cannot be used: names the file, the entry and the problem on one line. */
export class FaultOverlayError extends CassetteError {
  constructor(readonly file: string, readonly entry: string | undefined, readonly problem: string) {
    super(entry === undefined ? `${file}: ${problem}` : `${file}: ${entry}: ${problem}`);
  }
}

/** The methods a `tool`, `prompt` or `uri` target implies. */
export const NAMED_TARGET_METHODS: Readonly<Record<"tool" | "prompt" | "uri", readonly string[]>> =
  {
    tool: ["tools/call"],
    prompt: ["prompts/get"],
    uri: ["resources/read", "resources/subscribe", "resources/unsubscribe"],
  };

const KIND_ALIASES: Readonly<Record<string, Fault["kind"]>> = {
  "delay": "delay",
  "timeout": "timeout",
  "error": "error",
  "malformed": "malformed",
  "disconnect": "disconnect",
  "http-status": "http-status",
  "http_status": "http-status",
  "sse-drop": "sse-drop",
  "sse_drop": "sse-drop",
};

const MALFORMED_STRATEGIES = ["truncate", "not_json", "wrong_id"] as const;

const ROOT_KEYS = new Set(["faults", "seed", "$schema", "description", "comment"]);
const ENTRY_KEYS = new Set([
  "name",
  "description",
  "comment",
  "match",
  "target",
  "fault",
  "type",
  "params",
]);
const MATCH_KEYS = new Set(["method", "tool", "prompt", "uri", "nth", "probability"]);

type JsonRecord = Record<string, unknown>;

/** Reports problems against one place in the file. */
class Where {
  constructor(readonly file: string, readonly entry?: string) {}
  fail(problem: string): never {
    throw new FaultOverlayError(this.file, this.entry, problem);
  }
}

function isRecord(value: unknown): value is JsonRecord {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

function show(value: unknown): string {
  if (value === undefined) return "nothing";
  const text = JSON.stringify(value);
  return text.length > 40 ? `${text.slice(0, 37)}...` : text;
}

function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text[i] === "\n") {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}

/** Parses JSON with comments and trailing commas; the first syntax error throws with line and column. */
function parseText(text: string, file: string): unknown {
  if (text.trim() === "") {
    throw new FaultOverlayError(file, undefined, 'the file is empty (expected {"faults": [...]})');
  }
  const errors: ParseError[] = [];
  const value: unknown = parseJsonc(text, errors, {
    allowTrailingComma: true,
    disallowComments: false,
  });
  if (errors.length > 0) {
    const { line, column } = lineAndColumn(text, errors[0].offset);
    throw new FaultOverlayError(
      `${file}:${line}:${column}`,
      undefined,
      `not valid JSON/JSONC (${printParseErrorCode(errors[0].error)})`,
    );
  }
  return value;
}

function checkKeys(
  where: Where,
  record: JsonRecord,
  allowed: ReadonlySet<string>,
  prefix: string,
): void {
  for (const key of Object.keys(record)) {
    if (!allowed.has(key)) {
      where.fail(
        `unknown field "${prefix}${key}" (known: ${
          [...allowed].map((k) => prefix + k).join(", ")
        })`,
      );
    }
  }
}

function optionalString(
  where: Where,
  record: JsonRecord,
  key: string,
  path: string,
): string | undefined {
  const value = record[key];
  if (value === undefined) return undefined;
  if (typeof value !== "string" || value === "") {
    where.fail(`${path}${key} must be a non-empty string, got ${show(value)}`);
  }
  return value;
}

function requireInteger(
  where: Where,
  value: unknown,
  path: string,
  min: number,
  max = Number.MAX_SAFE_INTEGER,
): number {
  if (typeof value !== "number" || !Number.isInteger(value) || value < min || value > max) {
    const range = max === Number.MAX_SAFE_INTEGER ? `>= ${min}` : `from ${min} to ${max}`;
    where.fail(`${path} must be an integer ${range}, got ${show(value)}`);
  }
  return value;
}

function parseSeedField(where: Where, value: unknown, path: string): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== "number" || !Number.isSafeInteger(value)) {
    where.fail(`${path} must be an integer, got ${show(value)}`);
  }
  return value;
}

function parseNth(where: Where, value: unknown, path: string): NthSelector {
  if (value === undefined || value === "every") return "every";
  const problem = `${path} must be a positive integer, a list of them, or "every", got ${
    show(value)
  }`;
  const list = Array.isArray(value) ? value : [value];
  if (list.length === 0) where.fail(problem);
  for (const item of list) {
    if (typeof item !== "number" || !Number.isInteger(item) || item < 1) where.fail(problem);
  }
  return [...new Set(list as number[])].sort((a, b) => a - b);
}

function checkNamedTarget(where: Where, match: FaultMatch, path: string): void {
  const named = (["tool", "prompt", "uri"] as const).filter((key) => match[key] !== undefined);
  if (named.length > 1) {
    where.fail(`${path} gives both ${named[0]} and ${named[1]}; give at most one`);
  }
  const key = named[0];
  if (key === undefined || match.method === undefined || match.method.includes("*")) return;
  const methods = NAMED_TARGET_METHODS[key];
  if (!methods.includes(match.method)) {
    where.fail(`${path}${key} applies to ${methods.join(" or ")}, not method "${match.method}"`);
  }
}

function parseMatch(where: Where, value: unknown, path: string): FaultMatch {
  if (!isRecord(value)) where.fail(`${path} must be an object, got ${show(value)}`);
  checkKeys(where, value, MATCH_KEYS, `${path}.`);
  const prefix = `${path}.`;
  const match: FaultMatch = { nth: parseNth(where, value.nth, `${prefix}nth`) };
  for (const key of ["method", "tool", "prompt", "uri"] as const) {
    const text = optionalString(where, value, key, prefix);
    if (text !== undefined) match[key] = text;
  }
  if (value.probability !== undefined) {
    const p = value.probability;
    if (typeof p !== "number" || !(p >= 0 && p <= 1)) {
      where.fail(`${prefix}probability must be a number from 0 to 1, got ${show(p)}`);
    }
    match.probability = p;
  }
  checkNamedTarget(where, match, prefix);
  const aimed = match.method ?? match.tool ?? match.prompt ?? match.uri ?? match.probability;
  if (aimed === undefined) {
    where.fail(`targets nothing: give ${prefix}method, tool, prompt, uri or probability`);
  }
  return match;
}

function parseKind(where: Where, value: unknown, path: string): Fault["kind"] {
  if (typeof value !== "string") {
    where.fail(`${path} must be a fault kind string, got ${show(value)}`);
  }
  const kind = KIND_ALIASES[value];
  if (kind === undefined) {
    where.fail(
      `unknown fault kind "${value}" (known: delay, timeout, error, malformed, disconnect, http-status, sse-drop)`,
    );
  }
  return kind;
}

/** Default headers a client expects with these statuses; the user's own win. */
function statusHeaders(status: number, given: Record<string, string>): Record<string, string> {
  const defaults: Record<string, string> = {};
  if (status === 401) defaults["WWW-Authenticate"] = "Bearer";
  if (status === 429 || status === 503) defaults["Retry-After"] = "1";
  const givenNames = new Set(Object.keys(given).map((name) => name.toLowerCase()));
  const headers: Record<string, string> = {};
  for (const [name, text] of Object.entries(defaults)) {
    if (!givenNames.has(name.toLowerCase())) headers[name] = text;
  }
  return { ...headers, ...given };
}

function parseHeaders(where: Where, value: unknown, path: string): Record<string, string> {
  if (value === undefined) return {};
  if (!isRecord(value)) {
    where.fail(`${path} must be an object of header names to strings, got ${show(value)}`);
  }
  const headers: Record<string, string> = {};
  for (const [name, text] of Object.entries(value)) {
    // A number (Retry-After: 5) is what people write; take it as its text.
    if (typeof text === "number" && Number.isFinite(text)) headers[name] = String(text);
    else if (typeof text === "string") headers[name] = text;
    else where.fail(`${path}.${name} must be a string, got ${show(text)}`);
  }
  return headers;
}

/** Field names each kind takes, beyond the kind itself. */
const KIND_FIELDS: Readonly<Record<Fault["kind"], readonly string[]>> = {
  "delay": ["ms"],
  "timeout": [],
  "error": ["code", "message", "data"],
  "malformed": ["strategy"],
  "disconnect": [],
  "http-status": ["status", "headers", "body"],
  "sse-drop": ["afterEvents", "after_events", "after"],
};

function buildFault(where: Where, kind: Fault["kind"], fields: JsonRecord, path: string): Fault {
  checkKeys(where, fields, new Set(KIND_FIELDS[kind]), path);
  switch (kind) {
    case "delay":
      return { kind, ms: requireInteger(where, fields.ms, `${path}ms`, 0) };
    case "timeout":
    case "disconnect":
      return { kind };
    case "error": {
      const code = requireInteger(where, fields.code, `${path}code`, Number.MIN_SAFE_INTEGER);
      if (typeof fields.message !== "string") {
        where.fail(`${path}message must be a string, got ${show(fields.message)}`);
      }
      const fault: Fault = { kind, code, message: fields.message };
      if (fields.data !== undefined) fault.data = fields.data as Json;
      return fault;
    }
    case "malformed": {
      const strategy = fields.strategy;
      if (!MALFORMED_STRATEGIES.includes(strategy as typeof MALFORMED_STRATEGIES[number])) {
        where.fail(
          `${path}strategy must be one of ${MALFORMED_STRATEGIES.join(", ")}, got ${
            show(strategy)
          }`,
        );
      }
      return { kind, strategy: strategy as typeof MALFORMED_STRATEGIES[number] };
    }
    case "http-status": {
      const status = requireInteger(where, fields.status, `${path}status`, 100, 599);
      const headers = statusHeaders(status, parseHeaders(where, fields.headers, `${path}headers`));
      const fault: Fault = { kind, status, headers };
      if (fields.body !== undefined) {
        if (typeof fields.body !== "string") {
          where.fail(`${path}body must be a string, got ${show(fields.body)}`);
        }
        fault.body = fields.body;
      }
      return fault;
    }
    case "sse-drop": {
      const given = ["afterEvents", "after_events", "after"].filter((key) =>
        fields[key] !== undefined
      );
      if (given.length > 1) {
        where.fail(`${path}${given[0]} and ${path}${given[1]} say the same thing; give one`);
      }
      const key = given[0] ?? "afterEvents";
      return { kind, afterEvents: requireInteger(where, fields[key], `${path}${key}`, 0) };
    }
  }
}

/** Our spelling: `"fault": {"kind": ..., ...fields}` or a list of them. */
function parseOurFaults(where: Where, value: unknown): Fault[] {
  const list = Array.isArray(value) ? value : [value];
  if (list.length === 0) where.fail(`"fault" is an empty list`);
  return list.map((item, i) => {
    const path = Array.isArray(value) ? `fault[${i}]` : "fault";
    if (!isRecord(item)) where.fail(`${path} must be an object with a "kind", got ${show(item)}`);
    const { kind, ...fields } = item;
    return buildFault(where, parseKind(where, kind, `${path}.kind`), fields, `${path}.`);
  });
}

/** The Python spelling: `"type": "error", "params": {...}`. */
function parsePythonFault(where: Where, type: unknown, params: unknown): Fault[] {
  const kind = parseKind(where, type, "type");
  if (params !== undefined && !isRecord(params)) {
    where.fail(`params must be an object, got ${show(params)}`);
  }
  return [buildFault(where, kind, params ?? {}, "params.")];
}

function entryLabel(index: number, name: unknown): string {
  return typeof name === "string" && name !== "" ? `fault #${index} "${name}"` : `fault #${index}`;
}

function parseEntry(file: string, value: unknown, index: number): FaultEntry {
  const where: Where = new Where(file, entryLabel(index, isRecord(value) ? value.name : undefined));
  if (!isRecord(value)) where.fail(`must be an object, got ${show(value)}`);
  checkKeys(where, value, ENTRY_KEYS, "");
  const name = optionalString(where, value, "name", "");
  if (value.match !== undefined && value.target !== undefined) {
    where.fail(`give "match" or "target", not both`);
  }
  const hasOurs = value.fault !== undefined;
  const hasPython = value.type !== undefined || value.params !== undefined;
  if (hasOurs && hasPython) where.fail(`give "fault" or "type"/"params", not both`);
  if (!hasOurs && !hasPython) where.fail(`says no fault to inject: give "fault": {"kind": ...}`);
  const matchKey = value.target !== undefined ? "target" : "match";
  const match = parseMatch(where, value[matchKey], matchKey);
  const faults = hasOurs
    ? parseOurFaults(where, value.fault)
    : parsePythonFault(where, value.type, value.params);
  const entry: FaultEntry = { index, match, faults };
  if (name !== undefined) entry.name = name;
  return entry;
}

/**
 * Parses overlay text (JSON or JSONC). `sourceName` is used in messages.
 *
 * @example
 * ```ts
 * const overlay = parseFaultOverlay(
 *   `{"faults": [{"match": {"tool": "get-sum", "nth": 2}, "fault": {"kind": "delay", "ms": 300}}]}`,
 *   "inline.json",
 * );
 * console.log(overlay.entries[0].faults); // [{ kind: "delay", ms: 300 }]
 * ```
 */
export function parseFaultOverlay(text: string, sourceName: string): FaultOverlay {
  const root = parseText(text, sourceName);
  const where: Where = new Where(sourceName);
  const document: JsonRecord = Array.isArray(root)
    ? { faults: root }
    : isRecord(root)
    ? root
    : where.fail(
      `the top level must be an object with "faults" (or a list of faults), got ${show(root)}`,
    );
  checkKeys(where, document, ROOT_KEYS, "");
  if (!Array.isArray(document.faults)) {
    where.fail(`"faults" must be a list, got ${show(document.faults)}`);
  }
  const overlay: FaultOverlay = {
    source: sourceName,
    entries: document.faults.map((entry, i) => parseEntry(sourceName, entry, i + 1)),
  };
  const seed = parseSeedField(where, document.seed, "seed");
  if (seed !== undefined) overlay.seed = seed;
  return overlay;
}

/**
 * Reads and parses an overlay file.
 *
 * @example
 * ```ts
 * const overlay = await loadFaultOverlay("faults.jsonc");
 * ```
 */
export async function loadFaultOverlay(path: string): Promise<FaultOverlay> {
  let text: string;
  try {
    text = await runtime.readTextFile(path);
  } catch (error) {
    const code = (error as { code?: string }).code;
    const problem = code === "ENOENT" || (error as Error).name === "NotFound"
      ? "no such file"
      : code === "EISDIR" || (error as Error).name === "IsADirectory"
      ? "is a directory"
      : (error as Error).message;
    throw new FaultOverlayError(path, undefined, `cannot read the fault overlay: ${problem}`);
  }
  return parseFaultOverlay(text, path);
}
