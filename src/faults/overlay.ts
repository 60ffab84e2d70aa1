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
import { runtime } from "../runtime/mod.ts";
import type { FaultEntry, FaultMatch, FaultOverlay, NthSelector } from "./types.ts";
import { parseOurFaults, parsePythonFault } from "./overlay_fault.ts";
import {
  checkKeys,
  FaultOverlayError,
  isRecord,
  type JsonRecord,
  optionalString,
  show,
  Where,
} from "./overlay_fields.ts";
import { lineAndColumn } from "../json/jsonc.ts";

/** The methods a `tool`, `prompt` or `uri` target implies. */
export const NAMED_TARGET_METHODS: Readonly<Record<"tool" | "prompt" | "uri", readonly string[]>> =
  {
    tool: ["tools/call"],
    prompt: ["prompts/get"],
    uri: ["resources/read", "resources/subscribe", "resources/unsubscribe"],
  };

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
