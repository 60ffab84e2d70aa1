/**
 * What the redaction and token options several commands share (src/options/shared.ts) turn into.
 *
 * @module
 */
import type { OptionValues } from "../options/spec.ts";
import { flag, stringList } from "../options/spec.ts";
import type { FrameRedactor } from "../record/stdio.ts";
import { runtime } from "../runtime/mod.ts";
import { UsageError } from "../errors/errors.ts";
import { TOKEN_ENV } from "../http/token.ts";

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
  const redactor = await createRedactor({
    rules: stringList(values, "redact"),
    packs: stringList(values, "pack"),
    detectors,
    hashKey: runtime.env("MCP_CASSETTE_REDACT_KEY") || undefined,
    digestKey: await redactKey(true),
    digestSalt: (await existingRedaction(output).catch(() => undefined))?.digest?.salt,
  });
  const names = stringList(values, "secret-env");
  if (names.length === 0) return redactor;
  const { readSecrets, withSecrets } = await import("../secrets/env.ts");
  return withSecrets(redactor, readSecrets(names, "--secret-env"));
}

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
