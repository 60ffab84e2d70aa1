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
import { feedCassette, feedCassetteFile } from "../cassette/entries.ts";
import type { Cassette } from "../cassette/reader.ts";
import { extractSurface, latestItems } from "../surface/mod.ts";
import { latestOf, readSurface } from "../surface/stream.ts";
import type { LintBaseline } from "./findings.ts";
import type { PatternRule } from "./pack.ts";
import { LintRun } from "./run.ts";
import { BUILTIN_RULES } from "./rules.ts";
import type { Finding, RuleInfo } from "./types.ts";

export type { Finding, RuleInfo, Severity } from "./types.ts";
export { atLeast, compareFindings } from "./types.ts";
export { BUILTIN_RULES, ruleEnabled } from "./rules.ts";
export { LintPackError, loadPack, parsePack } from "./pack.ts";
export type { PatternRule } from "./pack.ts";
export type { LintBaseline } from "./findings.ts";
export { LintRun } from "./run.ts";
export type { LintRunOptions } from "./run.ts";

/** What to lint with. */
export interface LintOptions {
  /** Rules from TOML packs, added to the built-in ones. */
  packs?: readonly PatternRule[];
  /**
   * An earlier recording of the same server, for the rug-pull rule: loaded,
   * or its surface as {@linkcode readBaseline} gives it.
   */
  baseline?: Cassette | LintBaseline;
  /** Rule-id prefixes to run (all when empty). */
  select?: readonly string[];
  /** Rule-id prefixes to skip. */
  ignore?: readonly string[];
  /** With a most age in ms (`--max-age`), an older cassette is an MCL010 finding. */
  maxAgeMs?: number;
  /** Now, in ms since the epoch, for the age (default `Date.now()`). */
  now?: number;
}

/** The rules a run with these options knows about (before select/ignore). */
export function knownRules(packs: readonly PatternRule[] = []): RuleInfo[] {
  const own = new Set(BUILTIN_RULES.map((rule) => rule.id));
  const extra = packs.filter((rule) => !own.has(rule.id)).map((
    { id, name, severity, summary, origin },
  ) => ({ id, name, severity, summary, origin }));
  return [...BUILTIN_RULES, ...extra];
}

function baselineOf(baseline: Cassette | LintBaseline | undefined): LintBaseline | undefined {
  if (!baseline || !("entries" in baseline)) return baseline;
  return { path: baseline.path, items: latestItems(extractSurface(baseline.entries)) };
}

function runFor(options: LintOptions): LintRun {
  return new LintRun({ ...options, baseline: baselineOf(options.baseline) });
}

/** Lints one cassette; findings come sorted by line. */
export function lintCassette(cassette: Cassette, options: LintOptions = {}): Finding[] {
  const run = runFor(options);
  feedCassette(cassette, run);
  return run.finish();
}

/**
 * Lints the cassette at `path` as it streams past, holding only findings and
 * the listed surface, not the file: the same findings as
 * {@linkcode lintCassette} on the loaded file.
 */
export async function lintFile(path: string, options: LintOptions = {}): Promise<Finding[]> {
  const run = runFor(options);
  await feedCassetteFile(path, run);
  return run.finish();
}

/** The baseline for the rug-pull rule, streamed from the cassette at `path`. */
export async function readBaseline(path: string): Promise<LintBaseline> {
  const { surface } = await readSurface(path);
  return { path, items: latestOf(surface.items) };
}
