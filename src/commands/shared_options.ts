/**
 * Options several commands share, and what they turn into.
 *
 * @module
 */
import type { OptionSpec, OptionValues } from "../cli/command.ts";
import { flag, stringList } from "../cli/command.ts";
import type { FrameRedactor } from "../record/stdio.ts";
import { runtime } from "../runtime/mod.ts";

/** How `check` and `verify` name the server they talk to. */
export const SERVER_TARGET_OPTIONS: Record<string, OptionSpec> = {
  stdio: {
    type: "string",
    valueName: "COMMAND",
    description: "Server command line, split like a shell would",
  },
  url: { type: "string", valueName: "URL", description: "Server URL (Streamable HTTP)" },
  "timeout-ms": {
    type: "string",
    valueName: "MS",
    description: "Time each request may take",
    default: "10000",
  },
};

/** The redaction flags of `record` and `replay`. */
export const REDACTION_OPTIONS: Record<string, OptionSpec> = {
  redact: {
    type: "string",
    multiple: true,
    valueName: "RULE",
    description:
      "Also redact values under keys matching a glob (key:GLOB) or at a JSON pointer (/a/b)",
  },
  pack: {
    type: "string",
    multiple: true,
    valueName: "FILE",
    description: "A TOML redaction rule pack",
  },
  "no-detectors": {
    type: "boolean",
    description: "Turn off the free-text detectors (credential keys stay on)",
  },
};

/**
 * Builds the redactor the flags describe, for a recording into `output`: its
 * placeholders keyed (./redact_key.ts), with the salt of the cassette already
 * there, so that a launch appended to it keys values the same way.
 */
export async function redactorFromOptions(
  values: OptionValues,
  output: string,
  detectors: boolean | readonly string[] = !flag(values, "no-detectors"),
): Promise<FrameRedactor> {
  // Loaded here, not with this module: replay imports the flags but seldom needs the rules.
  const { createRedactor } = await import("../redact/mod.ts");
  const { existingRedaction, redactKey } = await import("./redact_key.ts");
  return await createRedactor({
    rules: stringList(values, "redact"),
    packs: stringList(values, "pack"),
    detectors,
    hashKey: runtime.env("MCP_CASSETTE_REDACT_KEY") || undefined,
    digestKey: await redactKey(true),
    digestSalt: (await existingRedaction(output).catch(() => undefined))?.digest?.salt,
  });
}
