/**
 * Options several commands share, and what they turn into.
 *
 * @module
 */
import type { OptionSpec, OptionValues } from "../cli/command.ts";
import { flag, stringList } from "../cli/command.ts";
import type { FrameRedactor } from "../record/stdio.ts";
import { runtime } from "../runtime/mod.ts";
import { UsageError } from "../errors.ts";
import { TOKEN_ENV } from "../http/token.ts";

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

/** Builds the redactor the flags describe. */
export async function redactorFromOptions(
  values: OptionValues,
  detectors: boolean | readonly string[] = !flag(values, "no-detectors"),
): Promise<FrameRedactor> {
  // Loaded here, not with this module: replay imports the flags but seldom needs the rules.
  const { createRedactor } = await import("../redact/mod.ts");
  return await createRedactor({
    rules: stringList(values, "redact"),
    packs: stringList(values, "pack"),
    detectors,
    hashKey: runtime.env("MCP_CASSETTE_REDACT_KEY") || undefined,
  });
}

/** The bearer-token flag of `replay --listen` and `record --url`. */
export const TOKEN_OPTIONS: Record<string, OptionSpec> = {
  token: {
    type: "string",
    valueName: "TOKEN",
    description:
      "With --listen: every request must carry Authorization: Bearer TOKEN, or gets 401 (default: MCP_CASSETTE_TOKEN; prefer it, a command line is visible to other users)",
  },
};

/** The token `--token` or `MCP_CASSETTE_TOKEN` gives, if any; an empty `--token` is refused. */
export function tokenFromOptions(values: OptionValues): string | undefined {
  const option = values.token;
  if (typeof option === "string") {
    if (option.trim() === "") throw new UsageError("--token must not be empty");
    return option;
  }
  const env = runtime.env(TOKEN_ENV);
  return env !== undefined && env.trim() !== "" ? env : undefined;
}
