/**
 * Argument parsing and dispatch for the `mcp-cassette` command.
 *
 * @module
 */
import { CassetteError, describeError, ExitCode, UsageError } from "../errors/errors.ts";
import { RECORDER_VERSION } from "../cassette/format.ts";
import type { Command, CommandInput } from "./command.ts";
import { optionNotes } from "../options/spec.ts";
import { commandNames, loadCommand, loadCommands } from "./registry.ts";
import { parseArgList } from "./args.ts";
import type { ArgSpec } from "./args.ts";
import { printErr, printOut } from "./output.ts";
import { closestName } from "../options/suggest.ts";
import { CONFIG_SECTIONS, findConfigFile, loadConfig } from "../config/file.ts";
import type { ConfigSection } from "../config/file.ts";
import { describeSource, resolveOptions } from "../config/options.ts";
import type { SettingSource } from "../config/options.ts";

/** The overview printed by `mcp-cassette --help`. */
export async function overview(): Promise<string> {
  const commands = await loadCommands();
  const width = Math.max(...commands.map((command) => command.name.length));
  const lines = commands.map((command) => `  ${command.name.padEnd(width)}  ${command.summary}`);
  return [
    `mcp-cassette ${RECORDER_VERSION}: record an MCP session once, replay it as a server forever`,
    "",
    "Usage: mcp-cassette <command> [options]",
    "",
    "Commands:",
    ...lines,
    "",
    "Run `mcp-cassette <command> --help` for a command's options.",
  ].join("\n");
}

/** The help text of one command. */
export function commandHelp(command: Command): string {
  const rows = Object.entries(command.options).filter(([, spec]) => !spec.hidden).map(
    ([name, spec]) => {
      const flagText = `${spec.short ? `-${spec.short}, ` : ""}--${name}${
        spec.type === "string" ? ` ${spec.valueName ?? "VALUE"}` : ""
      }`;
      const fallback = spec.default !== undefined ? ` (default: ${spec.default})` : "";
      return [flagText, spec.description + optionNotes(spec) + fallback] as const;
    },
  );
  const width = Math.max(0, ...rows.map(([flagText]) => flagText.length));
  return [
    `Usage: mcp-cassette ${command.usage}`,
    "",
    command.description ?? command.summary,
    ...(rows.length > 0
      ? ["", "Options:", ...rows.map(([f, d]) => `  ${f.padEnd(width)}  ${d}`)]
      : []),
  ].join("\n");
}

function parseCommandArgs(command: Command, args: string[]): CommandInput {
  const separator = args.indexOf("--");
  const own = separator === -1 ? args : args.slice(0, separator);
  const rest = separator === -1 ? [] : args.slice(separator + 1);
  if (rest.length > 0 && !command.takesRest) {
    throw new UsageError(`${command.name} does not take a command after --`);
  }
  const options: Record<string, ArgSpec> = {
    help: { type: "boolean", short: "h" },
    ...command.options,
  };
  try {
    const parsed = parseArgList(own, options);
    return { values: parsed.values, positionals: parsed.positionals, rest };
  } catch (error) {
    throw new UsageError(describeError(error));
  }
}

/** Settings the command did not get as flags, from the environment and mcp-cassette.toml. */
async function withConfig(
  command: Command,
  input: CommandInput,
  lookup: Promise<string | undefined> | undefined,
): Promise<Map<string, SettingSource>> {
  if (!lookup) return new Map();
  const explicit = typeof input.values.config === "string" ? input.values.config : undefined;
  const file = await loadConfig(explicit, lookup);
  const resolved = resolveOptions(
    command.name as ConfigSection,
    command.options,
    input.values,
    file,
  );
  input.values = resolved.values;
  return resolved.sources;
}

/**
 * A bad option value names the flag (`--timeout-ms must be…`); when the value
 * came from the file or the environment, say so, or the user looks for a flag
 * they never typed.
 */
function withSource(message: string, sources: Map<string, SettingSource>): string {
  const name = message.match(/^--([\w-]+)/)?.[1];
  const source = name === undefined ? undefined : sources.get(name);
  if (!source || source.from === "flag" || source.from === "default") return message;
  return `${message} (set by ${describeSource(source)})`;
}

/** One line for a mistyped command (or top-level option), with the closest known name. */
function unknownCommand(name: string): string {
  const option = name.startsWith("-");
  const guess = option
    ? closestName(name.replace(/^-+/, ""), ["help", "version"])
    : closestName(name, commandNames);
  const what = option ? "option" : "command";
  const suggestion = guess ? `. Did you mean '${option ? "--" : ""}${guess}'?` : "";
  return `mcp-cassette: Unknown ${what} '${name}'${suggestion}\n` +
    "Run 'mcp-cassette --help' for the commands.\n";
}

/** Runs the CLI with `args`; resolves with the exit code. */
export async function main(args: readonly string[]): Promise<number> {
  const [name, ...rest] = args;
  if (name === undefined || name === "--help" || name === "-h" || name === "help") {
    if (name === undefined) printErr(await overview());
    else await printOut((await overview()) + "\n");
    return name === undefined ? ExitCode.BadInput : ExitCode.Ok;
  }
  if (name === "--version" || name === "-V") {
    await printOut(`mcp-cassette ${RECORDER_VERSION}\n`);
    return ExitCode.Ok;
  }
  // Started before the command loads, so that its file system calls overlap the module loading.
  const lookup = (CONFIG_SECTIONS as readonly string[]).includes(name)
    ? findConfigFile().catch(() => undefined)
    : undefined;
  const command = await loadCommand(name);
  if (!command) {
    printErr(unknownCommand(name));
    return ExitCode.BadInput;
  }
  let input: CommandInput;
  try {
    input = parseCommandArgs(command, [...rest]);
  } catch (error) {
    printErr(
      `mcp-cassette ${name}: ${describeError(error)}\n` +
        `Run 'mcp-cassette ${name} --help' for the options.\n`,
    );
    return ExitCode.BadInput;
  }
  if (input.values.help === true) {
    await printOut(commandHelp(command) + "\n");
    return ExitCode.Ok;
  }
  let sources = new Map<string, SettingSource>();
  try {
    sources = await withConfig(command, input, lookup);
    return await command.run(input);
  } catch (error) {
    if (error instanceof CassetteError) {
      if (error.reported) return error.exitCode;
      printErr(`mcp-cassette ${name}: ${withSource(describeError(error), sources)}\n`);
      return error.exitCode;
    }
    // Not a user mistake: keep the stack, it is a bug report.
    printErr(
      `mcp-cassette ${name}: internal error: ${(error as Error)?.stack ?? error}\n`,
    );
    return 70;
  }
}
