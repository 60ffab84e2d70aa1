/**
 * Record modes, in vcrpy's vocabulary, and how one is chosen: the
 * `MCP_CASSETTE_MODE` environment variable beats code, which beats config,
 * so a CI job can force `none` on every test without touching them.
 *
 * @module
 */
import { UsageError } from "../errors/errors.ts";
import { runtime } from "../runtime/mod.ts";

/**
 * - `once`: record when the cassette is absent, else replay (the default)
 * - `none`: replay only; a missing cassette is an error
 * - `all`: always re-record
 * - `new_episodes`: replay; a request with no recording goes to the live
 *   server and the exchange is appended to the cassette
 */
export type RecordMode = "once" | "none" | "all" | "new_episodes";

/** Every mode name, in documentation order. */
export const RECORD_MODES: readonly RecordMode[] = ["once", "none", "all", "new_episodes"];

/** The environment variable that overrides every other mode setting. */
export const MODE_ENV = "MCP_CASSETTE_MODE";

/** Checks a mode name; `source` says where it came from, for the error. */
export function parseRecordMode(value: string, source: string): RecordMode {
  const normalised = value.trim().toLowerCase().replace(/-/g, "_");
  if ((RECORD_MODES as readonly string[]).includes(normalised)) return normalised as RecordMode;
  throw new UsageError(
    `Unknown record mode ${JSON.stringify(value)} from ${source} (expected one of ${
      RECORD_MODES.join(", ")
    })`,
  );
}

/**
 * Picks the mode: the environment variable, else `code`, else `config`, else
 * `once`. `codeSource` names where `code` came from in an error (`--mode`
 * when the command line gave it).
 */
export function resolveRecordMode(
  code?: string,
  config?: string,
  codeSource = "the code",
): RecordMode {
  const fromEnv = runtime.env(MODE_ENV);
  if (fromEnv !== undefined && fromEnv !== "") {
    return parseRecordMode(fromEnv, `the ${MODE_ENV} environment variable`);
  }
  if (code !== undefined) return parseRecordMode(code, codeSource);
  if (config !== undefined) return parseRecordMode(config, "the config");
  return "once";
}

/** What a mode means for a cassette that does or does not exist yet. */
export type ModeAction = "record" | "replay" | "replay-append";

/**
 * The action for `mode` given whether the cassette exists; throws for
 * `none` with no cassette, since that would need a recording.
 */
export function actionFor(mode: RecordMode, cassetteExists: boolean, cassette: string): ModeAction {
  if (mode === "all") return "record";
  if (cassetteExists) return mode === "new_episodes" ? "replay-append" : "replay";
  if (mode === "none") {
    throw new UsageError(
      `The cassette ${cassette} does not exist and record mode "none" forbids recording it (record it locally with mode "once", or commit it)`,
    );
  }
  return "record";
}
