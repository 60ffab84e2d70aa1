/**
 * What lint reports and how rules are described.
 *
 * @module
 */

/** How serious a finding is. `--fail-on` picks the lowest one that fails. */
export type Severity = "error" | "warning";

/** A rule, as listed in docs/lint.md and SARIF. */
export interface RuleInfo {
  id: string;
  /** A short kebab-case name. */
  name: string;
  severity: Severity;
  summary: string;
  /** Where the rule came from: `builtin` or a pack file. */
  origin: string;
}

/** One thing lint found, pointing into the cassette. */
export interface Finding {
  rule: string;
  severity: Severity;
  message: string;
  file: string;
  /** The line of the cassette (1 is the header; 0 when the file as a whole is meant). */
  line: number;
  /** JSON pointer inside that line's JSON value. */
  pointer: string;
  /** The text that matched, shortened, when there is one. */
  excerpt?: string;
}

/** Orders findings by file, line, pointer, rule. */
export function compareFindings(a: Finding, b: Finding): number {
  return a.file.localeCompare(b.file) || a.line - b.line || a.pointer.localeCompare(b.pointer) ||
    a.rule.localeCompare(b.rule) || a.message.localeCompare(b.message);
}

/** True when `severity` is at or above `threshold`. */
export function atLeast(severity: Severity, threshold: Severity): boolean {
  return threshold === "warning" || severity === "error";
}
