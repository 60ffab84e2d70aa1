/**
 * Whether a matched request is one an overlay entry aims at, and how to
 * describe an entry in reports.
 *
 * @module
 */
import type { JsonRpcMessage } from "../jsonrpc/messages.ts";
import { NAMED_TARGET_METHODS } from "./overlay.ts";
import type { FaultEntry, FaultMatch } from "./types.ts";
import type { FaultSubject } from "./types.ts";

const globCache = new Map<string, RegExp>();

/** Compares a target with a value; `*` in the target matches any run of characters. */
export function matchesPattern(pattern: string, value: string): boolean {
  if (!pattern.includes("*")) return pattern === value;
  let regex = globCache.get(pattern);
  if (regex === undefined) {
    const body = pattern.split("*").map((part) => part.replace(/[.+?^${}()|[\]\\]/g, "\\$&")).join(
      ".*",
    );
    regex = new RegExp(`^${body}$`, "s");
    globCache.set(pattern, regex);
  }
  return regex.test(value);
}

/** The tool name, prompt name or resource URI a request carries in its params. */
function nameFromParams(message: JsonRpcMessage): string | undefined {
  const params = message.params;
  if (params === undefined || Array.isArray(params)) return undefined;
  const method = message.method ?? "";
  const key = NAMED_TARGET_METHODS.uri.includes(method) ? "uri" : "name";
  const value = params[key];
  return typeof value === "string" ? value : undefined;
}

/**
 * Builds the {@linkcode FaultSubject} for a request: its method, and the
 * tool name, prompt name or resource URI when the method has one.
 */
export function faultSubjectFromRequest(message: JsonRpcMessage): FaultSubject {
  const subject: FaultSubject = { method: message.method ?? "", message };
  const named = [
    ...NAMED_TARGET_METHODS.tool,
    ...NAMED_TARGET_METHODS.prompt,
    ...NAMED_TARGET_METHODS.uri,
  ];
  if (named.includes(subject.method)) {
    const name = nameFromParams(message);
    if (name !== undefined) subject.name = name;
  }
  return subject;
}

/** True when the subject has the method, and name or URI, the match asks for. Ignores nth and probability. */
export function matchesSubject(match: FaultMatch, subject: FaultSubject): boolean {
  if (match.method !== undefined && !matchesPattern(match.method, subject.method)) return false;
  for (const key of ["tool", "prompt", "uri"] as const) {
    const wanted = match[key];
    if (wanted === undefined) continue;
    if (!NAMED_TARGET_METHODS[key].includes(subject.method)) return false;
    const name = subject.name ?? nameFromParams(subject.message);
    if (name === undefined || !matchesPattern(wanted, name)) return false;
  }
  return true;
}

function describeTarget(match: FaultMatch): string {
  const implied = match.tool !== undefined
    ? "tools/call"
    : match.prompt !== undefined
    ? "prompts/get"
    : match.uri !== undefined
    ? "resources/read"
    : undefined;
  const parts = [match.method ?? implied ?? "any request"];
  const name = match.tool ?? match.prompt ?? match.uri;
  if (name !== undefined) parts.push(name);
  if (match.nth !== "every") parts.push(`nth ${match.nth.join(",")}`);
  if (match.probability !== undefined) parts.push(`probability ${match.probability}`);
  return parts.join(" ");
}

/**
 * Names an entry for reports: `fault #2 "slow sum" (delay on tools/call get-sum nth 3)`.
 */
export function describeFaultEntry(entry: FaultEntry): string {
  const label = entry.name === undefined
    ? `fault #${entry.index}`
    : `fault #${entry.index} "${entry.name}"`;
  const kinds = entry.faults.map((fault) => fault.kind).join("+");
  return `${label} (${kinds} on ${describeTarget(entry.match)})`;
}
