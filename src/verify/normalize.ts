/**
 * Noise control: before two answers are compared, JSON carried in a tool's
 * text content is parsed, volatile values (timestamps, UUIDs, `_meta`,
 * `ttlMs`, session ids) are masked, and the user's `--ignore-path` paths are
 * dropped from both sides.
 *
 * @module
 */
import type { Json, JsonObject } from "../jsonrpc/messages.ts";
import { pathStep, setOwn, tryParseJson } from "../json/values.ts";
import { isObject } from "../util/helpers.ts";

const ISO_TIMESTAMP =
  /\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?/g;
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;
const MASKED_KEYS = /^(?:_meta|ttlMs|(?:mcp[-_]?)?session[-_]?id)$/i;

/** Placeholder of a value dropped by `--ignore-path`. */
export const IGNORED = "<ignored>";

/** A compiled `--ignore-path` pattern. */
export interface IgnorePattern {
  source: string;
  regex: RegExp;
}

/**
 * Compiles `--ignore-path` patterns: `result.content[].text` (or with a
 * leading `$.`); `[]` or `[*]` stands for any index. A pattern covers the
 * value at that path and everything inside it.
 */
export function compileIgnorePaths(patterns: readonly string[]): IgnorePattern[] {
  return patterns.map((source) => {
    let body = source.trim().replace(/^\$\.?/, "");
    if (body.startsWith(".")) body = body.slice(1);
    const escaped = body
      .split(/\[\*?\]/)
      .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))
      .join("\\[\\d+\\]");
    return { source, regex: new RegExp(`^\\$${escaped ? "\\." + escaped : ""}(?=$|[.[])`) };
  });
}

/** True when `path` (like `$.result.content[0].text`) is covered by a pattern. */
export function isIgnored(path: string, patterns: readonly IgnorePattern[]): boolean {
  return patterns.some((pattern) => pattern.regex.test(path));
}

function maskString(text: string): string {
  return text.replace(ISO_TIMESTAMP, "<timestamp>").replace(UUID, "<uuid>");
}

/** Replaces `content[].text` that holds a JSON object or array with the parsed value. */
function expandTextJson(value: Json): Json {
  if (!isObject(value) || !Array.isArray(value.content)) return value;
  const content = value.content.map((item) => {
    if (!isObject(item) || typeof item.text !== "string") return item;
    const trimmed = item.text.trim();
    if (!trimmed.startsWith("{") && !trimmed.startsWith("[")) return item;
    const parsed = tryParseJson(trimmed);
    return parsed ? { ...item, text: parsed.value } : item;
  });
  return { ...value, content };
}

function walk(value: Json, path: string, patterns: readonly IgnorePattern[]): Json | undefined {
  if (patterns.length > 0 && isIgnored(path, patterns)) return undefined;
  if (typeof value === "string") return maskString(value);
  if (Array.isArray(value)) {
    return value.map((item, i) => walk(item, `${path}[${i}]`, patterns) ?? IGNORED);
  }
  if (isObject(value)) {
    const out: JsonObject = {};
    for (const [key, child] of Object.entries(value)) {
      if (MASKED_KEYS.test(key)) continue;
      const normalized = walk(child, path + pathStep(key), patterns);
      if (normalized !== undefined) setOwn(out, key, normalized);
    }
    return out;
  }
  return value;
}

/**
 * Normalises the payload of an answer (its `result` or `error`) found at
 * `path` (`$.result` or `$.error`).
 *
 * @example
 * ```ts
 * normalizeAnswer({ at: "2025-01-01T00:00:00Z" }, "$.result", []);
 * // { at: "<timestamp>" }
 * ```
 */
export function normalizeAnswer(
  payload: Json,
  path: string,
  patterns: readonly IgnorePattern[],
): Json {
  const expanded = path === "$.result" ? expandTextJson(payload) : payload;
  return walk(expanded, path, patterns) ?? IGNORED;
}
