/**
 * The fault part of an overlay entry, in both spellings: ours
 * (`"fault": {"kind": ...}`) and the Python mcp-cassette's (`"type"` +
 * `"params"`), validated field by field for each kind.
 *
 * @module
 */
import type { Json } from "../jsonrpc/messages.ts";
import type { Fault } from "./types.ts";
import {
  checkKeys,
  isRecord,
  type JsonRecord,
  requireInteger,
  show,
  type Where,
} from "./overlay_fields.ts";

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
export function parseOurFaults(where: Where, value: unknown): Fault[] {
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
export function parsePythonFault(where: Where, type: unknown, params: unknown): Fault[] {
  const kind = parseKind(where, type, "type");
  if (params !== undefined && !isRecord(params)) {
    where.fail(`params must be an object, got ${show(params)}`);
  }
  return [buildFault(where, kind, params ?? {}, "params.")];
}
