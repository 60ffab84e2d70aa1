/**
 * The findings of the rules that look at server text and at the listed
 * surface, computed from what the streaming run (./run.ts) kept.
 *
 * @module
 */
import { markupIn } from "./names.ts";
import { stableStringify } from "../json/values.ts";
import type { Json } from "../jsonrpc/messages.ts";
import type { SurfaceItem } from "../surface/mod.ts";
import { latestOf } from "../surface/stream.ts";
import type { StreamedSurface } from "../surface/stream.ts";
import { selectorMatches } from "./fields.ts";
import type { TextField } from "./fields.ts";
import type { PatternRule } from "./pack.ts";
import { excerpt, findInvisible, findSecret, nameProblem, skeleton } from "./text_checks.ts";
import type { Finding } from "./types.ts";

/** What the pattern rules find in some text fields. */
export function patternFindings(
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

/** Invisible characters, odd names and secret-shaped strings in some text fields. */
export function characterFindings(file: string, fields: readonly TextField[]): Finding[] {
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
      const markup = field.field === "tool.name" || field.field === "prompt.name"
        ? markupIn(field.text)
        : undefined;
      if (markup) {
        findings.push({
          rule: "MCL111",
          severity: "error",
          message: `${field.subject}: the name holds a ${markup}: names are never markup`,
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
export function duplicateFindings(file: string, surface: StreamedSurface): Finding[] {
  const findings: Finding[] = [];
  const groupOf: number[] = [];
  surface.lists.forEach((list, i) => {
    const previous = surface.lists[i - 1];
    const continues = previous && previous.kind === list.kind &&
      previous.session === list.session && list.cursor;
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

/** The earlier recording the rug-pull rule compares with: its path and latest items. */
export interface LintBaseline {
  path: string;
  items: Map<string, SurfaceItem>;
}

/** MCL110: watched parts of an item that changed since the baseline. */
export function rugPullFindings(
  file: string,
  surface: StreamedSurface,
  baseline: LintBaseline,
): Finding[] {
  const before = baseline.items;
  const findings: Finding[] = [];
  for (const [key, item] of latestOf(surface.items)) {
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
