/**
 * `[testing]`: defaults for the test-runner helpers (`startCassette`), used
 * for each option a test did not pass, so a suite keeps its cassette folder,
 * record mode, matching and redaction in one place.
 *
 * @module
 */
import { stringList, stringOption } from "../options/spec.ts";
import { TESTING_OPTIONS } from "../options/testing.ts";
import { MODE_ENV, parseRecordMode } from "../modes/mode.ts";
import { runtime } from "../runtime/mod.ts";
import { ConfigError, isAbsolute, loadConfig } from "./file.ts";
import { describeSource, resolveOptions } from "./options.ts";
import type { ResolvedOptions } from "./options.ts";

/** `[testing]` resolved: the file's values under the environment's. */
export async function testingSettings(): Promise<ResolvedOptions> {
  const file = await loadConfig();
  const resolved = resolveOptions("testing", TESTING_OPTIONS, {}, file);
  const match = stringOption(resolved.values, "match");
  const source = (key: string) => describeSource(resolved.sources.get(key)!);
  if (match !== undefined && match !== "exact" && match !== "lenient") {
    throw new ConfigError(
      `${source("match")}: [testing] match must be "exact" or "lenient", not ${
        JSON.stringify(match)
      }`,
    );
  }
  const mode = stringOption(resolved.values, "mode");
  if (mode !== undefined) parseRecordMode(mode, source("mode"));
  return resolved;
}

/** The options of `startCassette` that `[testing]` can fill in. */
export interface TestingOptions {
  path: string;
  mode?: string;
  replayArgs?: string[];
  match?: "exact" | "lenient";
  matchIgnore?: string[];
  maxAge?: string;
  onExpired?: string;
  onMiss?: string;
}

/** The options with the config's defaults, and flags for the recorder. */
export interface TestingPlan<T extends TestingOptions> {
  options: T;
  /** Flags the recorder gets (redaction). */
  recordArgs: string[];
}

function repeat(flagName: string, values: readonly string[]): string[] {
  return values.flatMap((value) => [flagName, value]);
}

/**
 * Fills what a test did not pass from `[testing]`: a relative `path` is taken
 * from `cassette-dir`, `mode` from `mode` (the `MCP_CASSETTE_MODE` variable
 * still wins), `replayArgs` from `match`, `match-ignore` and the redaction.
 *
 * @example
 * ```ts
 * const { options, recordArgs } = await withTestingConfig({ path: "tools.jsonl" });
 * ```
 */
export async function withTestingConfig<T extends TestingOptions>(
  given: T,
): Promise<TestingPlan<T>> {
  const { values } = await testingSettings();
  const dir = stringOption(values, "cassette-dir");
  const relative = !isAbsolute(given.path);
  const redaction = [
    ...repeat("--redact", stringList(values, "redact")),
    ...repeat("--pack", stringList(values, "pack")),
  ];
  const match = stringOption(values, "match") as TestingOptions["match"];
  const ignored = stringList(values, "match-ignore");
  const options: T = {
    ...given,
    path: dir !== undefined && relative ? `${dir}/${given.path}` : given.path,
    mode: given.mode ?? stringOption(values, "mode"),
    match: given.match ?? match,
    matchIgnore: given.matchIgnore ?? (ignored.length > 0 ? ignored : undefined),
    replayArgs: given.replayArgs ?? redaction,
    maxAge: given.maxAge ?? stringOption(values, "max-age"),
    onExpired: given.onExpired ?? stringOption(values, "on-expired"),
    onMiss: given.onMiss ?? stringOption(values, "on-miss"),
  };
  return { options, recordArgs: redaction };
}

/** Whether the mode comes from the environment variable that beats every other setting. */
export function modeFromEnvironment(): string | undefined {
  const value = runtime.env(MODE_ENV);
  return value === undefined || value === "" ? undefined : value;
}
