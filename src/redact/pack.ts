/**
 * Rule packs: TOML files of named rules, checked up front so that a typo
 * fails the command (exit 2) instead of silently letting a secret through.
 *
 * ```toml
 * name = "acme"                 # optional; defaults to the file name
 *
 * [[rules]]
 * label = "customer-id"         # used in placeholders and reports
 * regex = 'ACME-\d{6}'          # or: key = "*customer*", or: pointer = "/params/arguments/id"
 * flags = "i"                   # optional regex flags: i, m, s, u
 * strategy = "hash"             # replace (default) | hash | mask
 * direction = "both"            # c2s | s2c | both (default)
 * ```
 *
 * @module
 */
import { CassetteError, describeError, UsageError } from "../errors/errors.ts";
import { runtime } from "../runtime/mod.ts";
import { compileRegex, globMatcher, parsePointer, regexRule, RULE_DIRECTIONS } from "./rules.ts";
import type { Rule, RuleDirection } from "./rules.ts";
import { LABEL_PATTERN, STRATEGIES } from "./strategy.ts";
import type { Strategy } from "./strategy.ts";

/** A loaded, validated pack. */
export interface RulePack {
  name: string;
  path: string;
  /** SHA-256 of the file's bytes, hex. */
  sha256: string;
  rules: Rule[];
}

const RULE_FIELDS = new Set(["label", "regex", "key", "pointer", "flags", "strategy", "direction"]);

import { sha256Hex } from "./sha256.ts";
export { sha256Hex };

function baseName(path: string): string {
  const file = path.split(/[\\/]/).pop() ?? path;
  return file.replace(/\.toml$/i, "");
}

/** Reads, parses and validates a pack; every problem is a {@linkcode CassetteError} naming the file and rule. */
export async function loadPack(path: string): Promise<RulePack> {
  let text: string;
  try {
    text = await runtime.readTextFile(path);
  } catch (error) {
    const code = (error as { code?: string }).code;
    throw new CassetteError(
      `Rule pack ${path}: cannot read it: ${
        code === "ENOENT" ? "no such file" : describeError(error)
      }`,
    );
  }
  // Loaded here, not at the top: most runs (every replay) read no pack at all.
  const { parse } = await import("smol-toml");
  return parsePack(path, text, sha256Hex(text), parse);
}

/** Validates the text of a pack (exposed for tests and for packs not on disk). */
export function parsePack(
  path: string,
  text: string,
  sha256: string,
  parse: (text: string) => unknown,
): RulePack {
  let document: Record<string, unknown>;
  try {
    document = parse(text) as Record<string, unknown>;
  } catch (error) {
    throw new CassetteError(`Rule pack ${path}: not valid TOML: ${describeError(error)}`);
  }
  const name = document.name ?? baseName(path);
  if (typeof name !== "string" || !LABEL_PATTERN.test(name)) {
    throw new CassetteError(`Rule pack ${path}: "name" must be letters, digits, "_", "." or "-"`);
  }
  const unknownTop = Object.keys(document).find((key) => key !== "name" && key !== "rules");
  if (unknownTop) {
    throw new CassetteError(
      `Rule pack ${path}: unknown field "${unknownTop}" (expected name, [[rules]])`,
    );
  }
  const list = document.rules ?? [];
  if (!Array.isArray(list)) {
    throw new CassetteError(`Rule pack ${path}: "rules" must be an array of tables ([[rules]])`);
  }
  const rules = list.map((entry, index) => parsePackRule(path, name, entry, index));
  const labels = new Set<string>();
  for (const rule of rules) {
    if (labels.has(rule.label)) {
      throw new CassetteError(`Rule pack ${path}: rule "${rule.label}" is defined twice`);
    }
    labels.add(rule.label);
  }
  return { name, path, sha256, rules };
}

function parsePackRule(path: string, packName: string, entry: unknown, index: number): Rule {
  const where = (label: string) => `Rule pack ${path}, rule "${label}"`;
  if (entry === null || typeof entry !== "object" || Array.isArray(entry)) {
    throw new CassetteError(`Rule pack ${path}, rule #${index + 1}: must be a table`);
  }
  const fields = entry as Record<string, unknown>;
  const label = fields.label;
  if (typeof label !== "string" || !LABEL_PATTERN.test(label)) {
    throw new CassetteError(
      `Rule pack ${path}, rule #${index + 1}: "label" must be letters, digits, "_", "." or "-"`,
    );
  }
  const stringField = (field: string): string | undefined => {
    const value = fields[field];
    if (value !== undefined && typeof value !== "string") {
      throw new CassetteError(`${where(label)}: "${field}" must be a string`);
    }
    return value;
  };
  const unknown = Object.keys(fields).find((field) => !RULE_FIELDS.has(field));
  if (unknown) throw new CassetteError(`${where(label)}: unknown field "${unknown}"`);
  const strategy = stringField("strategy") ?? "replace";
  if (!(STRATEGIES as readonly string[]).includes(strategy)) {
    throw new CassetteError(
      `${where(label)}: unknown strategy "${strategy}" (expected ${STRATEGIES.join(", ")})`,
    );
  }
  const direction = stringField("direction") ?? "both";
  if (!(RULE_DIRECTIONS as readonly string[]).includes(direction)) {
    throw new CassetteError(
      `${where(label)}: unknown direction "${direction}" (expected ${RULE_DIRECTIONS.join(", ")})`,
    );
  }
  const base = {
    id: `pack:${packName}/${label}`,
    label,
    strategy: strategy as Strategy,
    direction: direction as RuleDirection,
  };
  const regex = stringField("regex");
  const key = stringField("key");
  const pointer = stringField("pointer");
  const flags = stringField("flags");
  const given = [regex, key, pointer].filter((value) => value !== undefined).length;
  if (given !== 1) {
    throw new CassetteError(`${where(label)}: give exactly one of "regex", "key", "pointer"`);
  }
  if (flags !== undefined && regex === undefined) {
    throw new CassetteError(`${where(label)}: "flags" needs "regex"`);
  }
  try {
    if (regex !== undefined) return regexRule(base, compileRegex(regex, flags ?? "", where(label)));
    if (key !== undefined) {
      if (key === "") throw new UsageError(`${where(label)}: "key" is empty`);
      return { ...base, kind: "key", matches: globMatcher(key) };
    }
    return { ...base, kind: "pointer", segments: parsePointer(pointer!, where(label)) };
  } catch (error) {
    // Same message, but a pack problem is bad input, not command-line usage.
    if (error instanceof UsageError) throw new CassetteError(error.message);
    throw error;
  }
}
