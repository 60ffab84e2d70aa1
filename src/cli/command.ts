/**
 * The shape of a CLI command. Each command lives in src/commands/<name>.ts
 * and exports one {@linkcode Command}; cli.ts parses with `node:util`
 * `parseArgs` from these definitions, and docs/cli.md is generated from the
 * same definitions, so the reference never drifts from the parser.
 *
 * @module
 */
import { UsageError } from "../errors.ts";

/** One option of a command. */
export interface OptionSpec {
  type: "string" | "boolean";
  short?: string;
  multiple?: boolean;
  /** Shown in help, e.g. `FILE` or `HOST:PORT`. */
  valueName?: string;
  description: string;
  default?: string | boolean;
  /** Internal options (used between our own processes) stay out of help and docs. */
  hidden?: boolean;
}

/** Parsed values: strings, booleans, or lists for `multiple` options. */
export type OptionValues = Record<string, string | boolean | (string | boolean)[] | undefined>;

/** What a command receives. */
export interface CommandInput {
  values: OptionValues;
  /** Positional arguments before `--`. */
  positionals: string[];
  /** Everything after `--` (a server command line). */
  rest: string[];
}

/** A CLI command. */
export interface Command {
  name: string;
  /** One line for the overview. */
  summary: string;
  /** The synopsis, e.g. `replay CASSETTE [--listen HOST:PORT]`. */
  usage: string;
  /** A paragraph or two for `--help` and docs/cli.md. */
  description?: string;
  options: Record<string, OptionSpec>;
  /** Whether arguments after `--` are accepted. */
  takesRest?: boolean;
  /** Runs the command; resolves with the exit code. */
  run(input: CommandInput): Promise<number>;
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
