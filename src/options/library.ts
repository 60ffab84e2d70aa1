/**
 * The library's side of the option schema: code spells an option in
 * camelCase (`answerTimeoutMs` for `--answer-timeout-ms`), and a value code
 * passes is checked against the option's declared type before anything
 * starts, failing with one line that names the option as the code wrote it
 * and the flag the command line has.
 *
 * @module
 */
import { UsageError } from "../errors/errors.ts";
import { isNumeric } from "./spec.ts";
import type { OptionSet, OptionSpec } from "./spec.ts";
import { closestName } from "./suggest.ts";

/** The library's name of an option: `answer-timeout-ms` is `answerTimeoutMs`. */
export function libraryName(name: string): string {
  return name.replace(/-([a-z])/g, (_, letter: string) => letter.toUpperCase());
}

/** What a value of `spec` must be, for messages. */
function wanted(spec: OptionSpec): string {
  if (spec.type === "boolean") return "true or false";
  if (spec.choices) return spec.choices.map((choice) => JSON.stringify(choice)).join(" or ");
  const scalar = isNumeric(spec) ? "a number" : "a string";
  return spec.multiple ? `an array of ${scalar.replace(/^an? /, "")}s` : scalar;
}

function fits(value: unknown, spec: OptionSpec): boolean {
  if (spec.type === "boolean") return typeof value === "boolean";
  if (spec.multiple) return Array.isArray(value) && value.every((item) => typeof item === "string");
  if (isNumeric(spec)) return typeof value === "number" && Number.isFinite(value);
  if (typeof value !== "string") return false;
  return spec.choices === undefined || spec.choices.includes(value);
}

/**
 * Checks `given` (a library call's options for `command`) against the
 * command's declared options: an unknown key or a value of the wrong type
 * throws {@linkcode UsageError}, e.g. `replay.paceScale (--pace-scale) must
 * be a number, got "2"`. `renamed` maps library names that differ from the
 * flag's (`detectors` for `--no-detectors`).
 *
 * @example
 * ```ts
 * checkLibraryOptions("replay", REPLAY_OPTIONS, { strict: true, seed: 7 });
 * ```
 */
export function checkLibraryOptions(
  command: string,
  options: OptionSet,
  given: Readonly<Record<string, unknown>>,
  renamed: Readonly<Record<string, string>> = {},
): void {
  const byLibraryName = new Map(
    Object.entries(options).filter(([, spec]) => !spec.hidden).map((
      [name, spec],
    ) => [libraryName(name), [name, spec] as const]),
  );
  for (const [key, flagName] of Object.entries(renamed)) {
    if (Object.hasOwn(options, flagName)) byLibraryName.set(key, [flagName, options[flagName]]);
  }
  for (const [key, value] of Object.entries(given)) {
    if (value === undefined) continue;
    const known = byLibraryName.get(key);
    if (!known) {
      const guess = closestName(key, byLibraryName.keys());
      throw new UsageError(
        `${command}.${key} is not an option of ${command}` +
          (guess ? `. Did you mean ${command}.${guess}?` : ""),
      );
    }
    const [name, spec] = known;
    if (!fits(value, spec)) {
      throw new UsageError(
        `${command}.${key} (--${name}) must be ${wanted(spec)}, got ${JSON.stringify(value)}`,
      );
    }
  }
}
