/**
 * Redaction rules: the three kinds (text patterns, key globs, JSON
 * pointers), the always-on defaults, and the `--redact` rule syntax.
 *
 * @module
 */
import { UsageError } from "../errors/errors.ts";
import { DETECTORS } from "./detectors.ts";
import type { Span } from "./detectors.ts";
import { regexSpans } from "./detectors.ts";
import { foldKey, isCredentialKey, isProtocolKey } from "./keys.ts";
import type { Strategy } from "./strategy.ts";

/** Which messages a rule applies to: client to server, server to client, or both. */
export type RuleDirection = "c2s" | "s2c" | "both";

/** The directions, for validation. */
export const RULE_DIRECTIONS: readonly RuleDirection[] = ["c2s", "s2c", "both"];

interface RuleBase {
  /** How the rule is named in a cassette header and in scan findings, e.g. `detector:email`. */
  id: string;
  /** The label inside placeholders, e.g. `email` in `[REDACTED:email]`. */
  label: string;
  strategy: Strategy;
  direction: RuleDirection;
}

/** A rule that finds secrets inside strings. */
export interface TextRule extends RuleBase {
  kind: "text";
  find(text: string): Span[];
  /**
   * A pattern without flags that matches somewhere in every text `find`
   * finds anything in. The redactor tests the hints of all its rules at once
   * and skips a string none of them matches.
   */
  hint?: RegExp;
}

/** A rule that redacts the string value under matching object keys. */
export interface KeyRule extends RuleBase {
  kind: "key";
  matches(key: string): boolean;
}

/** A rule that redacts the value at a JSON pointer (`*` matches any one step). */
export interface PointerRule extends RuleBase {
  kind: "pointer";
  segments: string[];
}

/** Any rule. */
export type Rule = TextRule | KeyRule | PointerRule;

/** The always-on key rule (see ./keys.ts for its precise definition). */
export const DEFAULT_KEY_RULE: KeyRule = {
  kind: "key",
  id: "keys:default",
  label: "credential",
  strategy: "replace",
  direction: "both",
  matches: isCredentialKey,
};

const JSON_PAIR = /"(?<key>[^"\\]{1,100})"\s*:\s*"(?<value>(?:[^"\\]|\\.)+)"/dg;

/**
 * The key rule applied to JSON embedded in strings (a tool result whose
 * text is `{"password": "…"}`): only the quoted `"key": "value"` form, which
 * prose does not produce.
 */
export const EMBEDDED_JSON_KEY_RULE: TextRule = {
  kind: "text",
  id: "keys:default",
  label: "credential",
  strategy: "replace",
  direction: "both",
  find: (text) => keyValueSpans(JSON_PAIR, text, isCredentialKey),
  hint: /"\s*:/,
};

// The value sits in a lookahead so that a non-credential pair (`debug: TOKEN=x`) does not swallow the next one.
const LOOSE_PAIR =
  /(?<![\w.-])(?<key>[A-Za-z][\w.-]{0,60})["']?\s*[:=]\s*["']?(?=(?<value>(?:(?:Bearer|Basic|Token)\s+)?[^\s"'&,;]+))/dg;

/**
 * The key rule applied to raw, non-JSON lines (logs, banners): `key=value`
 * and `key: value` forms too. Not applied to JSON strings, where it would
 * rewrite prose such as a tool description saying "token: required".
 */
export const RAW_KEY_RULE: TextRule = {
  ...EMBEDDED_JSON_KEY_RULE,
  hint: /[:=]/,
  find: (text) =>
    [
      ...keyValueSpans(JSON_PAIR, text, isCredentialKey),
      ...keyValueSpans(LOOSE_PAIR, text, isCredentialKey),
    ].sort((a, b) => a.start - b.start).filter((span, i, all) =>
      i === 0 || span.start >= all[i - 1].end
    ),
};

function keyValueSpans(
  pattern: RegExp,
  text: string,
  isSecretKey: (key: string) => boolean,
): Span[] {
  const spans: Span[] = [];
  for (const match of text.matchAll(pattern)) {
    const { key, value } = match.groups!;
    if (!isSecretKey(key)) continue;
    const start = match.indices!.groups!.value[0];
    spans.push({ start, end: start + value.length });
  }
  return spans;
}

/** The built-in detectors as text rules. */
export function detectorRules(names?: readonly string[]): TextRule[] {
  return DETECTORS.filter((item) => !names || names.includes(item.name)).map((item) => ({
    kind: "text",
    id: `detector:${item.name}`,
    label: item.name,
    strategy: "replace",
    direction: "both",
    find: item.find,
    hint: item.hint,
  }));
}

/** Compiles a key glob (`*` any run, `?` one character) to a case-insensitive matcher. */
export function globMatcher(glob: string): (key: string) => boolean {
  const toRegex = (text: string) =>
    new RegExp(
      `^${text.replace(/[.+^${}()|[\]\\]/g, "\\$&").replace(/\*/g, ".*").replace(/\?/g, ".")}$`,
      "i",
    );
  const raw = toRegex(glob);
  const folded = toRegex(glob.toLowerCase().replace(/[\s\-_.]+/g, ""));
  return (key) => !isProtocolKey(key) && (raw.test(key) || folded.test(foldKey(key)));
}

/**
 * Parses a JSON pointer (RFC 6901) into its steps inside a message; `where`
 * names it in errors. The form `redact --scan` and `lint` print, from the
 * cassette line (`/msg/params/…`), is the same pointer: no JSON-RPC message
 * has a top-level `msg`, so that first step is dropped.
 */
export function parsePointer(pointer: string, where: string): string[] {
  if (!pointer.startsWith("/")) {
    throw new UsageError(
      `${where}: a JSON pointer starts with "/", got ${JSON.stringify(pointer)}`,
    );
  }
  const steps = pointer.slice(1).split("/").map((step) =>
    step.replace(/~1/g, "/").replace(/~0/g, "~")
  );
  const segments = steps[0] === "msg" && steps.length > 1 ? steps.slice(1) : steps;
  const guarded = segments.find((step) => isProtocolKey(step));
  if (
    guarded !== undefined ||
    (segments.length === 1 && ["id", "method", "jsonrpc"].includes(segments[0]))
  ) {
    throw new UsageError(
      `${where}: ${pointer} points at the protocol field "${
        guarded ?? segments[0]
      }", which is never redacted`,
    );
  }
  return segments;
}

/** Compiles a regex source with the global flag, naming `where` in the error. */
export function compileRegex(source: string, flags: string, where: string): RegExp {
  if (!/^[imsu]*$/.test(flags)) {
    throw new UsageError(`${where}: regex flags may be i, m, s, u, not ${JSON.stringify(flags)}`);
  }
  let pattern: RegExp;
  try {
    pattern = new RegExp(source, `g${flags}`);
  } catch (error) {
    throw new UsageError(
      `${where}: invalid regex ${JSON.stringify(source)}: ${(error as Error).message}`,
    );
  }
  if (new RegExp(`^(?:${source})$`, flags).test("")) {
    throw new UsageError(`${where}: the regex ${JSON.stringify(source)} matches the empty string`);
  }
  return pattern;
}

/** A text rule from a regex; a named group `secret` narrows what is replaced. */
export function regexRule(fields: RuleBase, pattern: RegExp): TextRule {
  return { ...fields, kind: "text", find: (text) => regexSpans(pattern, text) };
}

/**
 * Parses one `--redact` value:
 *
 * - `/params/arguments/ssn` — a JSON pointer into each message (`*` matches any one step);
 * - `key:GLOB` — the value under any key matching the glob (`key:*session*`);
 * - `regex:PATTERN` — every match inside any string.
 *
 * All redact in both directions with the `replace` strategy; packs offer more.
 */
export function parseRuleSpec(spec: string): Rule {
  const where = `--redact ${spec}`;
  const base = { strategy: "replace" as const, direction: "both" as const };
  if (spec.startsWith("/")) {
    return {
      ...base,
      kind: "pointer",
      id: `pointer:${spec}`,
      label: "pointer",
      segments: parsePointer(spec, where),
    };
  }
  if (spec.startsWith("key:") && spec.length > 4) {
    const glob = spec.slice(4);
    return { ...base, kind: "key", id: spec, label: "key", matches: globMatcher(glob) };
  }
  if (spec.startsWith("regex:") && spec.length > 6) {
    return regexRule({ ...base, id: spec, label: "regex" }, compileRegex(spec.slice(6), "", where));
  }
  throw new UsageError(
    `${where}: a rule is a JSON pointer (/params/arguments/ssn), key:GLOB (key:*session*) or regex:PATTERN`,
  );
}
