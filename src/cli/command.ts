/**
 * The shape of a CLI command. Each command lives in src/commands/<name>.ts
 * and exports one {@linkcode Command}; its options are declared in
 * src/options/<name>.ts (the schema the config file, the library and the
 * docs read too). The option types and readers are re-exported here for
 * the commands.
 *
 * @module
 */
import type { OptionSet, OptionValues } from "../options/spec.ts";

export type { OptionSet, OptionSpec, OptionValues } from "../options/spec.ts";
export { flag, positiveInt, stringList, stringOption } from "../options/spec.ts";

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
  /** Its options, declared in src/options/<name>.ts. */
  options: OptionSet;
  /** Whether arguments after `--` are accepted. */
  takesRest?: boolean;
  /** Runs the command; resolves with the exit code. */
  run(input: CommandInput): Promise<number>;
}
