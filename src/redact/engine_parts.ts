/**
 * The redactor's small parts: JSON pointers of walk paths, which rules apply
 * where, placeholders kept apart from the text around them, the joined hint
 * test of a rule list, and query encoding.
 *
 * @module
 */
import type { Direction } from "../cassette/format.ts";
import type { Span } from "./detectors.ts";
import type { PointerRule, Rule, TextRule } from "./rules.ts";
import { maskedExcerpt, PLACEHOLDER_SOURCE } from "./strategy.ts";
import type { Finding } from "./redactor_types.ts";
import { pathSteps } from "./rewrite.ts";
import type { PathNode } from "./rewrite.ts";

/** A rule found `secret` at `path`; `placeholder` is what it became. */
export type Hit = (rule: Rule, path: string, secret: string, placeholder: string) => void;

/** The top-level keys of a JSON-RPC envelope, never redacted. */
export const ENVELOPE_KEYS = new Set(["jsonrpc", "id", "method"]);
/** Keys whose base64 value is binary data, not text to scan. */
export const BINARY_KEYS = new Set(["data", "blob"]);
/** Anchors, word boundaries and lookarounds: a hint with one may match in a string and not in the line around it. */
export const ASSERTION = /\\[bB]|\^|\$|\(\?<?[=!]/;
/** Scrubbing a string repeats until nothing changes; rules converge long before this. */
export const MAX_PASSES = 8;

/** The findings a scan reports to its `hit`, with masked excerpts. */
export function found(scan: (hit: Hit) => void): Finding[] {
  const all: Finding[] = [];
  scan((rule, path, secret) => all.push({ rule: rule.id, path, excerpt: maskedExcerpt(secret) }));
  return all;
}

/**
 * The runs of text no rule rewrites: every placeholder a strategy makes,
 * and `record --secret-env`'s `[SECRET:NAME]`, which the secrets put in
 * before the rules run (else free-text rules read `SECRET:NAME` as a
 * credential and its value, and the command line in a header became
 * `[SECRET:[REDACTED:credential]`).
 */
const PLACEHOLDERS = new RegExp(
  `${PLACEHOLDER_SOURCE}|\\[SECRET:[A-Za-z_][A-Za-z0-9_]*\\]`,
  "g",
);

/** A JSON pointer step for `key`. */
export function pointerStep(key: string): string {
  return key.replace(/~/g, "~0").replace(/\//g, "~1");
}

/** The JSON pointer of a path. */
export function pointerOf(path: PathNode | undefined): string {
  return pathSteps(path).map((step) => "/" + pointerStep(step)).join("");
}

/** True when a pointer rule's segments (`*` for any step) name exactly this path. */
export function pointerMatches(rule: PointerRule, path: PathNode): boolean {
  if (rule.segments.length !== path.depth) return false;
  let at: PathNode | undefined = path;
  for (let i = rule.segments.length - 1; i >= 0; i--, at = at!.parent) {
    if (rule.segments[i] !== "*" && rule.segments[i] !== at!.step) return false;
  }
  return true;
}

/** Whether `rule` applies in direction `dir`. */
export function applies(rule: Rule, dir: Direction | "any"): boolean {
  return dir === "any" || rule.direction === "both" || rule.direction === dir;
}

/** Splits `text` into runs that are placeholders (locked) and runs that are not. */
export function splitLocked(text: string): { text: string; locked: boolean }[] {
  const parts: { text: string; locked: boolean }[] = [];
  let at = 0;
  for (const match of text.matchAll(PLACEHOLDERS)) {
    if (match.index! > at) parts.push({ text: text.slice(at, match.index), locked: false });
    parts.push({ text: match[0], locked: true });
    at = match.index! + match[0].length;
  }
  if (at < text.length || parts.length === 0) parts.push({ text: text.slice(at), locked: false });
  return parts;
}

/**
 * Whether any of a list of text rules can find something in a string: the
 * hints of all rules that have one, joined into one pattern and tested once
 * (most strings match none), then the rules without a hint, and only when a
 * hint matched, the rules themselves.
 */
export class RuleGate {
  readonly #hints: RegExp | undefined;
  readonly #unhinted: TextRule[];

  constructor(readonly rules: TextRule[]) {
    const hinted = rules.filter((rule) => rule.hint && rule.hint.flags.replace(/[gy]/g, "") === "");
    this.#unhinted = rules.filter((rule) => !hinted.includes(rule));
    this.#hints = hinted.length > 0
      ? new RegExp(hinted.map((rule) => `(?:${rule.hint!.source})`).join("|"))
      : undefined;
  }

  mayFind(text: string): boolean {
    if (this.#hints?.test(text)) return this.rules.some((rule) => rule.find(text).length > 0);
    return this.#unhinted.some((rule) => rule.find(text).length > 0);
  }
}

/** Spans in order, the longer first where two start together. */
export function nonOverlapping(spans: Span[]): Span[] {
  return [...spans].sort((a, b) => a.start - b.start || b.end - a.end);
}

/** A query component decoded; as it is when it is not valid percent-encoding. */
export function decodeQuery(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, " "));
  } catch {
    return text;
  }
}

/** Percent-encodes a query value, leaving placeholders' brackets and colons readable. */
export function encodeQuery(text: string): string {
  return encodeURIComponent(text).replace(/%5B/g, "[").replace(/%5D/g, "]").replace(/%3A/g, ":");
}

/** `pathAndQuery` with each `name=value` pair of its query passed through `pair`. */
export function mapQuery(pathAndQuery: string, pair: (pair: string) => string): string {
  const hash = pathAndQuery.indexOf("#");
  const fragment = hash >= 0 ? pathAndQuery.slice(hash) : "";
  const beforeHash = hash >= 0 ? pathAndQuery.slice(0, hash) : pathAndQuery;
  const question = beforeHash.indexOf("?");
  if (question < 0) return pathAndQuery;
  const query = beforeHash.slice(question + 1).split("&").map(pair);
  return `${beforeHash.slice(0, question)}?${query.join("&")}${fragment}`;
}
