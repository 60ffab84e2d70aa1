/**
 * Typed options for the stdio replay a library call starts, turned into
 * the `replay` command's flags: what `replayArgs` spelt as strings, checked
 * where the test sets them rather than when the client launches the replay.
 *
 * @module
 */
import path from "node:path";
import { UsageError } from "../errors/errors.ts";
import { checkLibraryOptions } from "../options/library.ts";
import { REPLAY_OPTIONS } from "../options/replay.ts";
import type { OptionSet } from "../options/spec.ts";
import { runtime } from "../runtime/mod.ts";

/** The `replay` command's options, as the library takes them. */
export interface ReplayFlags {
  /** `--strict`: no inexact matches, and a client answer that differs from the recording fails. */
  strict?: boolean;
  /** `--answer-timeout-ms`: how long to wait for the client to answer a server request. */
  answerTimeoutMs?: number;
  /** `--faults`: a fault overlay file (JSON or JSONC), relative to the working directory. */
  faults?: string;
  /** `--seed`: the seed for probabilistic faults (overrides the overlay's). */
  seed?: number;
  /** `--pace`: `instant` (default) or `recorded` to keep the recorded gaps. */
  pace?: "instant" | "recorded";
  /** `--pace-scale`: multiply recorded gaps (implies `pace: "recorded"`). */
  paceScale?: number;
  /** `--pace-cap-ms`: cap any one gap (0: no cap; implies `pace: "recorded"`). */
  paceCapMs?: number;
  /** `--quiet`: print nothing on stderr but misses. */
  quiet?: boolean;
  /** `--redact`: extra redaction rules for what `new_episodes` appends. */
  redact?: string[];
  /** `--pack`: TOML redaction rule packs for what `new_episodes` appends. */
  pack?: string[];
  /** `false` is `--no-detectors`: no free-text detectors on what `new_episodes` appends. */
  detectors?: boolean;
  /** `--learn-ignores`: write the `matchIgnore` paths the misses suggested into mcp-cassette.toml. */
  learnIgnores?: boolean;
}

/** The `replay` options the library takes, as the option schema declares them. */
const LIBRARY_OPTIONS: OptionSet = Object.fromEntries(
  [
    "strict",
    "answer-timeout-ms",
    "faults",
    "seed",
    "pace",
    "pace-scale",
    "pace-cap-ms",
    "quiet",
    "redact",
    "pack",
    "no-detectors",
    "learn-ignores",
  ].map((name) => [name, REPLAY_OPTIONS[name]]),
);

function number(
  value: number | undefined,
  name: string,
  flag: string,
  check: (n: number) => boolean,
  wanted: string,
): string[] {
  if (value === undefined) return [];
  if (typeof value !== "number" || !Number.isFinite(value) || !check(value)) {
    throw new UsageError(`replay.${name} must be ${wanted}, got ${JSON.stringify(value)}`);
  }
  return [flag, String(value)];
}

function files(values: string[] | undefined, flag: string): string[] {
  // The client may start the replay from another folder: paths are made absolute here.
  return (values ?? []).flatMap((file) => [flag, path.resolve(runtime.cwd(), file)]);
}

/**
 * The `replay` flags for `flags`; throws {@linkcode UsageError} naming the
 * option at fault (an unknown one too, with the closest known name).
 *
 * @example
 * ```ts
 * replayFlags({ strict: true, pace: "recorded" }); // ["--strict", "--pace", "recorded"]
 * ```
 */
export function replayFlags(flags: ReplayFlags): string[] {
  // Names and types from the option schema; the ranges below are the library's own.
  checkLibraryOptions("replay", LIBRARY_OPTIONS, { ...flags }, { detectors: "no-detectors" });
  const whole = (n: number) => Number.isSafeInteger(n) && n >= 0;
  // Scale and cap only mean something with recorded pacing, which they then imply.
  const tuned = flags.paceScale !== undefined || flags.paceCapMs !== undefined;
  const pace = flags.pace ?? (tuned ? "recorded" : undefined);
  return [
    ...(flags.strict ? ["--strict"] : []),
    ...number(
      flags.answerTimeoutMs,
      "answerTimeoutMs",
      "--answer-timeout-ms",
      (n) => n > 0,
      "a number of ms > 0",
    ),
    ...(flags.faults !== undefined ? ["--faults", path.resolve(runtime.cwd(), flags.faults)] : []),
    ...number(flags.seed, "seed", "--seed", Number.isSafeInteger, "an integer"),
    ...(pace !== undefined ? ["--pace", pace] : []),
    ...number(flags.paceScale, "paceScale", "--pace-scale", (n) => n > 0, "a number > 0"),
    ...number(flags.paceCapMs, "paceCapMs", "--pace-cap-ms", whole, "a whole number of ms ≥ 0"),
    ...(flags.quiet ? ["--quiet"] : []),
    ...(flags.redact ?? []).flatMap((rule) => ["--redact", rule]),
    ...files(flags.pack, "--pack"),
    ...(flags.detectors === false ? ["--no-detectors"] : []),
    ...(flags.learnIgnores ? ["--learn-ignores"] : []),
  ];
}
