/**
 * Lint: consistency and security smells over a cassette. Rules are either
 * code (./consistency.ts, ./text_checks.ts) or data (TOML packs, ./pack.ts).
 *
 * @example
 * ```ts
 * const cassette = await loadCassette("weather.cassette.jsonl");
 * const findings = lintCassette(cassette, { packs: await loadPack("team.toml") });
 * for (const finding of findings) console.log(finding.line, finding.rule, finding.message);
 * ```
 *
 * @module
 */
import type { Cassette } from "../cassette/reader.ts";
import { stableStringify } from "../json.ts";
import type { Json } from "../jsonrpc.ts";
import {
  extractSurface,
  latestItems,
  listMessages,
  pairMessages,
  paramsOf,
} from "../surface/mod.ts";
import type { Surface, SurfaceItem } from "../surface/mod.ts";
import { BUILTIN_PATTERN_RULES } from "./builtin_pack.ts";
import { consistencyFindings } from "./consistency.ts";
import { collectFields, selectorMatches } from "./fields.ts";
import type { TextField } from "./fields.ts";
import type { PatternRule } from "./pack.ts";
import { BUILTIN_RULES, ruleEnabled } from "./rules.ts";
import { excerpt, findInvisible, findSecret, nameProblem, skeleton } from "./text_checks.ts";
import { compareFindings } from "./types.ts";
import type { Finding, RuleInfo } from "./types.ts";

export type { Finding, RuleInfo, Severity } from "./types.ts";
export { atLeast, compareFindings } from "./types.ts";
export { BUILTIN_RULES, ruleEnabled } from "./rules.ts";
export { LintPackError, loadPack, parsePack } from "./pack.ts";
export type { PatternRule } from "./pack.ts";

/** What to lint with. */
export interface LintOptions {
  /** Rules from TOML packs, added to the built-in ones. */
  packs?: readonly PatternRule[];
  /** An earlier recording of the same server, for the rug-pull rule. */
  baseline?: Cassette;
  /** Rule-id prefixes to run (all when empty). */
  select?: readonly string[];
  /** Rule-id prefixes to skip. */
  ignore?: readonly string[];
}

/** The rules a run with these options knows about (before select/ignore). */
export function knownRules(packs: readonly PatternRule[] = []): RuleInfo[] {
  const own = new Set(BUILTIN_RULES.map((rule) => rule.id));
  const extra = packs.filter((rule) => !own.has(rule.id)).map((
    { id, name, severity, summary, origin },
  ) => ({ id, name, severity, summary, origin }));
  return [...BUILTIN_RULES, ...extra];
}

function patternFindings(
  file: string,
  fields: readonly TextField[],
  rules: readonly PatternRule[],
): Finding[] {
  const findings: Finding[] = [];
  for (const rule of rules) {
    for (const field of fields) {
      if (!rule.surfaces.some((selector) => selectorMatches(selector, field.field))) continue;
      const match = rule.regex.exec(field.text);
      if (!match) continue;
      findings.push({
        rule: rule.id,
        severity: rule.severity,
        message: `${field.subject}: ${
          rule.message.replaceAll("{match}", excerpt(match[0], 60))
        } (in ${field.field})`,
        file,
        line: field.line,
        pointer: field.pointer,
        excerpt: excerpt(field.text),
      });
    }
  }
  return findings;
}

function characterFindings(file: string, fields: readonly TextField[]): Finding[] {
  const findings: Finding[] = [];
  for (const field of fields) {
    const at = { file, line: field.line, pointer: field.pointer };
    const invisible = findInvisible(field.text);
    if (invisible) {
      findings.push({
        rule: "MCL105",
        severity: "error",
        message:
          `${field.subject}: ${invisible.what} ${invisible.codePoint} at character ${invisible.index} of ${field.field}`,
        ...at,
        excerpt: excerpt(JSON.stringify(field.text)),
      });
    }
    if (field.field.endsWith(".name")) {
      const problem = nameProblem(field.text);
      if (problem) {
        findings.push({
          rule: "MCL106",
          severity: "warning",
          message: `${field.subject}: the name ${problem}`,
          ...at,
        });
      }
    }
    const secret = findSecret(field.text);
    if (secret) {
      const shown = secret.token.length > 12
        ? `${secret.token.slice(0, 6)}…${secret.token.slice(-4)}`
        : secret.token;
      findings.push({
        rule: "MCL107",
        severity: "warning",
        message:
          `${field.subject}: looks like a secret (${secret.what}: ${shown}) in ${field.field}`,
        ...at,
      });
    }
  }
  return findings;
}

/** Duplicate and look-alike names within one listing (pages of a cursor walk count as one). */
function duplicateFindings(file: string, surface: Surface): Finding[] {
  const findings: Finding[] = [];
  const groupOf: number[] = [];
  surface.lists.forEach((list, i) => {
    const previous = surface.lists[i - 1];
    const continues = previous && previous.kind === list.kind &&
      previous.exchange.request.session === list.exchange.request.session &&
      paramsOf(list.exchange.request)?.cursor !== undefined;
    groupOf.push(continues ? groupOf[i - 1] : i);
  });
  const groups = new Map<number, SurfaceItem[]>();
  for (const item of surface.items) {
    const group = groupOf[item.list];
    groups.set(group, [...(groups.get(group) ?? []), item]);
  }
  for (const items of groups.values()) {
    const byName = new Map<string, SurfaceItem>();
    const bySkeleton = new Map<string, SurfaceItem>();
    for (const item of items) {
      const earlier = byName.get(item.key);
      if (earlier) {
        findings.push({
          rule: "MCL108",
          severity: "warning",
          message: `${item.kind} ${
            JSON.stringify(item.key)
          } is listed twice (first at ${earlier.pointer}); clients keep one of them silently`,
          file,
          line: item.line,
          pointer: item.pointer,
        });
        continue;
      }
      byName.set(item.key, item);
      const folded = skeleton(item.key);
      const lookAlike = bySkeleton.get(folded);
      if (lookAlike) {
        findings.push({
          rule: "MCL106",
          severity: "warning",
          message: `${item.kind} ${JSON.stringify(item.key)} looks the same as ${
            JSON.stringify(lookAlike.key)
          } (${lookAlike.pointer})`,
          file,
          line: item.line,
          pointer: item.pointer,
        });
      } else bySkeleton.set(folded, item);
    }
  }
  return findings;
}

/** The parts of an item whose change is a rug pull. */
const WATCHED: Record<SurfaceItem["kind"], string[]> = {
  tool: ["description", "title", "inputSchema", "outputSchema", "annotations"],
  prompt: ["description", "title", "arguments"],
  resource: ["description", "title", "name", "mimeType"],
  template: ["description", "title", "name", "mimeType"],
};

function rugPullFindings(file: string, surface: Surface, baseline: Cassette): Finding[] {
  const before = latestItems(extractSurface(baseline.entries));
  const findings: Finding[] = [];
  for (const [key, item] of latestItems(surface)) {
    const old = before.get(key);
    if (!old) continue;
    for (const field of WATCHED[item.kind]) {
      const a = old.value[field] as Json | undefined;
      const b = item.value[field] as Json | undefined;
      if (stableStringify(a ?? null) === stableStringify(b ?? null)) continue;
      const what = field.endsWith("Schema") || field === "arguments" ? "schema" : "text";
      findings.push({
        rule: "MCL110",
        severity: "error",
        message: `${item.kind} ${
          JSON.stringify(item.key)
        }: ${field} changed since the baseline ${baseline.path} (${what}); review before trusting it`,
        file,
        line: item.line,
        pointer: `${item.pointer}/${field}`,
        ...(typeof b === "string" ? { excerpt: excerpt(b) } : {}),
      });
    }
  }
  return findings;
}

/** Lints one cassette; findings come sorted by line. */
export function lintCassette(cassette: Cassette, options: LintOptions = {}): Finding[] {
  const messages = listMessages(cassette.entries);
  const pairing = pairMessages(messages);
  const surface = extractSurface(cassette.entries, messages);
  const fields = collectFields(messages);
  const packIds = new Set((options.packs ?? []).map((rule) => rule.id));
  // A pack rule with a built-in id replaces the built-in one.
  const patternRules = [
    ...BUILTIN_PATTERN_RULES.filter((rule) => !packIds.has(rule.id)),
    ...(options.packs ?? []),
  ];
  const findings = [
    ...consistencyFindings(cassette, messages, pairing, surface),
    ...patternFindings(cassette.path, fields, patternRules),
    ...characterFindings(cassette.path, fields),
    ...duplicateFindings(cassette.path, surface),
    ...(options.baseline ? rugPullFindings(cassette.path, surface, options.baseline) : []),
  ];
  const select = options.select ?? [];
  const ignore = options.ignore ?? [];
  return findings.filter((finding) => ruleEnabled(finding.rule, select, ignore)).sort(
    compareFindings,
  );
}
