/**
 * What an option is, declared once: every command's options live in
 * src/options/<command>.ts as {@linkcode OptionSpec}s, and the CLI parser,
 * its "did you mean", the config file's checks, `inspect --explain-config`,
 * the library's option checks, docs/cli.md and the JSON Schemas in
 * `schemas/` all read those declarations. Below the CLI and the library
 * alike, so neither reaches into the other for them.
 *
 * @module
 */
import { UsageError } from "../errors/errors.ts";

/** One option of a command. */
export interface OptionSpec {
  type: "string" | "boolean";
  short?: string;
  /** Repeatable on the command line; an array in the config file. */
  multiple?: boolean;
  /** Shown in help, e.g. `FILE` or `HOST:PORT`; `N` and `MS` take numbers, `FILE`, `DIR`… paths. */
  valueName?: string;
  description: string;
  default?: string | boolean;
  /** The only values it takes, when it is a choice among names. */
  choices?: readonly string[];
  /** Internal options (used between our own processes) stay out of help, docs and the config. */
  hidden?: boolean;
  /** `false`: a flag only, never a config key or an environment variable (`lint --config`). */
  configurable?: false;
  /** The version that added the option, when later than the first release. */
  since?: string;
  /** Why the option is deprecated and what to use instead; it still works. */
  deprecated?: string;
}

/** A command's options by long name. */
export type OptionSet = Record<string, OptionSpec>;

/** Parsed values: strings, booleans, or lists for `multiple` options. */
export type OptionValues = Record<string, string | boolean | (string | boolean)[] | undefined>;

/** Value names of options that take a number: the config file and the library accept numbers. */
const NUMERIC_VALUES = new Set(["N", "MS"]);
/** Value names of options that take a path: relative ones in the config file are from its folder. */
const PATH_VALUES = new Set(["FILE", "OLD", "CASSETTE", "DIR"]);

/** Whether the option's value is a number (`--seed N`, `--timeout-ms MS`). */
export function isNumeric(spec: OptionSpec): boolean {
  return spec.type === "string" && spec.valueName !== undefined &&
    NUMERIC_VALUES.has(spec.valueName);
}

/** Whether the option's value is a path (`--faults FILE`, `--output CASSETTE`). */
export function isPath(spec: OptionSpec): boolean {
  return spec.type === "string" && spec.valueName !== undefined && PATH_VALUES.has(spec.valueName);
}

/** Reads a string option. */
export function stringOption(values: OptionValues, name: string): string | undefined {
  const value = values[name];
  return typeof value === "string" ? value : undefined;
}

/** Reads a repeatable string option. */
export function stringList(values: OptionValues, name: string): string[] {
  const value = values[name];
  if (Array.isArray(value)) return value.filter((item): item is string => typeof item === "string");
  return typeof value === "string" ? [value] : [];
}

/** Reads a boolean option. */
export function flag(values: OptionValues, name: string): boolean {
  return values[name] === true;
}

/** Parses a positive integer option; `fallback` when it was not given. */
export function positiveInt(value: string | undefined, name: string, fallback: number): number {
  if (value === undefined) return fallback;
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed <= 0) {
    throw new UsageError(`--${name} must be a positive integer, not "${value}"`);
  }
  return parsed;
}

/**
 * The notes help and docs add after an option's description: repeatable,
 * deprecated, since. A description that already says "repeatable" is not
 * told twice.
 */
export function optionNotes(spec: OptionSpec): string {
  const notes: string[] = [];
  if (spec.multiple && !/\brepeatable\b/i.test(spec.description)) notes.push("(repeatable)");
  if (spec.deprecated) notes.push(`(deprecated: ${spec.deprecated})`);
  if (spec.since) notes.push(`(since ${spec.since})`);
  return notes.length > 0 ? " " + notes.join(" ") : "";
}
