/**
 * `mcp-cassette check`: a quick health check of a server's surface.
 *
 * @module
 */
import { CHECK_OPTIONS } from "../options/check.ts";
import { checkScriptFromFlags } from "../script/check.ts";
import type { Command, CommandInput } from "../cli/command.ts";
import { flag, positiveInt, stringOption } from "../cli/command.ts";
import { colorEnabled, printOut } from "../cli/output.ts";
import { ExitCode, UsageError } from "../errors/errors.ts";
import { splitCommandLine } from "../client/command_line.ts";
import { openTransport } from "../client/target.ts";
// Registers the Streamable HTTP transport (src/http/) for --url; verify --url shares the registry.
import type { ServerTarget } from "../client/target.ts";
import { runCheck } from "../check/run.ts";
import { formatCheckJson, formatCheckText } from "../check/report.ts";

/** Works out the server from `--stdio`, `--url` or the words after `--`. */
export function targetFromInput(input: CommandInput, commandName: string): ServerTarget {
  const stdio = stringOption(input.values, "stdio");
  const url = stringOption(input.values, "url");
  const given =
    [stdio !== undefined, url !== undefined, input.rest.length > 0].filter(Boolean).length;
  if (given === 0) {
    throw new UsageError(
      `${commandName} needs a server: --stdio "COMMAND LINE", --url URL, or -- COMMAND ARGS…`,
    );
  }
  if (given > 1) {
    throw new UsageError(`${commandName} takes one server: --stdio, --url or a command after --`);
  }
  if (url !== undefined) {
    return { kind: "http", url };
  }
  const command = stdio !== undefined ? splitCommandLine(stdio) : input.rest;
  if (command.length === 0) {
    throw new UsageError(`${commandName}: the server command line is empty`);
  }
  return { kind: "stdio", command };
}

/** The `check` command. */
export const command: Command = {
  name: "check",
  summary: "Check a live server: handshake, surface counts, tool schema findings",
  usage: 'check (--stdio "COMMAND LINE" | --url URL | -- COMMAND ARGS…) [--json]',
  description:
    "Starts the server, runs the MCP handshake, lists its tools, resources, resource templates and " +
    "prompts (following pagination, only for declared capabilities) and checks every tool's input and " +
    "output JSON Schema for structural mistakes. Prints the server name and version, the protocol " +
    "version, the counts, the findings and `result: PASS` or `FAIL` (exit 1 when any finding is an " +
    "error). The report holds no timings, so a live run and a run against a replay print the same. " +
    "With --script, the playbook's client shakes hands and its steps run after the listing; each failed " +
    "step is an error finding.",
  takesRest: true,
  options: CHECK_OPTIONS,
  async run(input) {
    if (input.positionals.length > 0) {
      throw new UsageError(`check takes no positional arguments (got "${input.positionals[0]}")`);
    }
    const target = targetFromInput(input, "check");
    const timeoutMs = positiveInt(stringOption(input.values, "timeout-ms"), "timeout-ms", 10_000);
    const script = await checkScriptFromFlags(input.values);
    const report = await runCheck(openTransport(target), { timeoutMs, script });
    await printOut(
      flag(input.values, "json")
        ? formatCheckJson(report)
        : formatCheckText(report, { color: colorEnabled("stdout") }),
    );
    return report.result === "PASS" ? ExitCode.Ok : ExitCode.Failed;
  },
};
