/**
 * Command-line parsing for the option definitions in src/cli/command.ts:
 * long options (`--name value`, `--name=value`), short ones (`-o value`),
 * booleans, repeatable options, positionals, strict about unknown options.
 *
 * Our own rather than `node:util`'s parseArgs (which behaves the same on
 * Deno, Node and Bun): loading any `node:` module makes Deno initialise its
 * Node compatibility layer, about 19 ms of every `replay` start (measured:
 * spawn to first answer, 17.7 ms for a responder on Deno's own APIs, 36.6 ms
 * for the same with one `node:` import).
 *
 * @module
 */
import { closestName } from "../options/suggest.ts";

/** What an option is, for the parser. */
export interface ArgSpec {
  type: "string" | "boolean";
  short?: string;
  multiple?: boolean;
  /** Left out of "did you mean" suggestions (internal options). */
  hidden?: boolean;
}

/** The parse: option values by name, and the positionals in order. */
export interface ParsedArgs {
  values: Record<string, string | boolean | (string | boolean)[] | undefined>;
  positionals: string[];
}

/** A malformed command line; the message names the option. */
export class ArgsError extends TypeError {
  override name = "ArgsError";
}

/** The message for an unknown long option, with the closest known one when there is one. */
function unknownOption(name: string, options: Record<string, ArgSpec>): string {
  const visible = Object.keys(options).filter((known) => !options[known].hidden);
  const guess = closestName(name, visible);
  return `Unknown option '--${name}'` + (guess ? `. Did you mean '--${guess}'?` : "");
}

/**
 * Parses `args` against `options`.
 *
 * @example
 * ```ts
 * parseArgList(["-o", "x.jsonl", "--force", "in.jsonl"], {
 *   output: { type: "string", short: "o" },
 *   force: { type: "boolean" },
 * }); // { values: { output: "x.jsonl", force: true }, positionals: ["in.jsonl"] }
 * ```
 */
export function parseArgList(
  args: readonly string[],
  options: Record<string, ArgSpec>,
): ParsedArgs {
  const byShort = new Map(
    Object.entries(options).filter(([, spec]) => spec.short).map((
      [name, spec],
    ) => [spec.short!, name]),
  );
  const values: ParsedArgs["values"] = {};
  const positionals: string[] = [];
  const set = (name: string, value: string | boolean) => {
    if (options[name].multiple) ((values[name] ??= []) as (string | boolean)[]).push(value);
    else values[name] = value;
  };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    let name: string | undefined;
    let inline: string | undefined;
    if (arg.startsWith("--") && arg.length > 2) {
      const eq = arg.indexOf("=");
      name = eq === -1 ? arg.slice(2) : arg.slice(2, eq);
      inline = eq === -1 ? undefined : arg.slice(eq + 1);
      if (!Object.hasOwn(options, name)) throw new ArgsError(unknownOption(name, options));
    } else if (arg.startsWith("-") && arg.length === 2 && arg !== "--") {
      name = byShort.get(arg[1]);
      if (name === undefined) throw new ArgsError(`Unknown option '${arg}'`);
    } else {
      positionals.push(arg);
      continue;
    }
    const spec = options[name];
    if (spec.type === "boolean") {
      if (inline !== undefined) throw new ArgsError(`Option '--${name}' does not take a value`);
      set(name, true);
      continue;
    }
    const value = inline ?? args[++i];
    if (value === undefined) throw new ArgsError(`Option '--${name}' needs a value`);
    set(name, value);
  }
  return { values, positionals };
}
