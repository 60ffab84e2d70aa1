/**
 * TOML rule packs: rules as data (id, severity, surface, regex), never code.
 * The built-in text rules are a pack too (./builtin_pack.ts).
 *
 * @module
 */
import { parse } from "smol-toml";
import { CassetteError } from "../errors/errors.ts";
import { runtime } from "../runtime/mod.ts";
import { isKnownSelector, SURFACES } from "./fields.ts";
import type { RuleInfo, Severity } from "./types.ts";

/** A pack file that cannot be used: names the file and the rule. */
export class LintPackError extends CassetteError {}

/** A pattern rule, ready to run. */
export interface PatternRule extends RuleInfo {
  /** Field selectors, e.g. `tool.description` or `*.name`. */
  surfaces: string[];
  regex: RegExp;
  /** The message of a finding; `{match}` is replaced by the matched text. */
  message: string;
}

const ID = /^[A-Za-z][A-Za-z0-9_-]*$/;

/**
 * Parses a pack's TOML text. `name` is used in error messages (the file path).
 *
 * ```toml
 * [[rule]]
 * id = "TEAM001"
 * name = "internal-hostname"
 * severity = "warning"
 * surface = ["tool.description", "tool.result"]
 * regex = '\bcorp\.example\.com\b'
 * message = "mentions an internal host ({match})"
 * ```
 */
export function parsePack(text: string, name: string): PatternRule[] {
  let document: Record<string, unknown>;
  try {
    document = parse(text) as Record<string, unknown>;
  } catch (error) {
    throw new LintPackError(`${name}: not valid TOML: ${(error as Error).message.split("\n")[0]}`);
  }
  const rules = document.rule ?? document.rules;
  if (!Array.isArray(rules)) {
    throw new LintPackError(`${name}: expected one or more [[rule]] tables`);
  }
  const seen = new Set<string>();
  return rules.map((raw, index) => {
    const rule = raw as Record<string, unknown>;
    const label = typeof rule.id === "string" ? `rule ${rule.id}` : `rule #${index + 1}`;
    const fail = (problem: string): never => {
      throw new LintPackError(`${name}: ${label}: ${problem}`);
    };
    if (typeof rule.id !== "string" || !ID.test(rule.id)) {
      fail(`"id" must be a word such as "TEAM001"`);
    }
    const id = rule.id as string;
    if (seen.has(id)) fail("the id is used twice in this pack");
    seen.add(id);
    const severity = rule.severity ?? "warning";
    if (severity !== "error" && severity !== "warning") {
      fail(`"severity" must be "error" or "warning", not ${JSON.stringify(severity)}`);
    }
    const surfaces = typeof rule.surface === "string" ? [rule.surface] : rule.surface;
    if (
      !Array.isArray(surfaces) || surfaces.length === 0 ||
      surfaces.some((s) => typeof s !== "string")
    ) {
      fail(`"surface" must be a field name or a list of them (${SURFACES.join(", ")})`);
    }
    for (const selector of surfaces as string[]) {
      if (!isKnownSelector(selector)) {
        fail(`unknown surface ${JSON.stringify(selector)} (known: ${SURFACES.join(", ")})`);
      }
    }
    if (typeof rule.regex !== "string" || rule.regex === "") {
      fail(`"regex" must be a non-empty string`);
    }
    const caseSensitive = rule.case_sensitive === true;
    let regex: RegExp;
    try {
      regex = new RegExp(rule.regex as string, caseSensitive ? "u" : "iu");
    } catch (error) {
      return fail(`bad regex: ${(error as Error).message}`);
    }
    return {
      id,
      name: typeof rule.name === "string" ? rule.name : id.toLowerCase(),
      severity: severity as Severity,
      summary: typeof rule.summary === "string"
        ? rule.summary
        : typeof rule.message === "string"
        ? rule.message
        : `matches /${rule.regex}/`,
      origin: name,
      surfaces: surfaces as string[],
      regex: regex!,
      message: typeof rule.message === "string" ? rule.message : `matches the pattern of ${id}`,
    };
  });
}

/** Reads and parses a pack file. */
export async function loadPack(path: string): Promise<PatternRule[]> {
  let text: string;
  try {
    text = await runtime.readTextFile(path);
  } catch (error) {
    throw new LintPackError(
      `${path}: cannot read the rule pack: ${(error as Error).message.split("\n")[0]}`,
    );
  }
  return parsePack(text, path);
}
