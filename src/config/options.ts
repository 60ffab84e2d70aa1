/**
 * A command's settings from the config file and the environment, checked
 * against the option schema (src/options/; src/options/sections.ts says how
 * an option becomes a key and a variable). Precedence: flag, then
 * environment, then file, then the command's own default.
 *
 * @module
 */
import type { OptionSet, OptionSpec, OptionValues } from "../options/spec.ts";
import { closestName } from "../options/suggest.ts";
import { configurableOptions, envName, KEY_ALIASES } from "../options/sections.ts";
import { isNumeric, isPath } from "../options/spec.ts";
import { runtime } from "../runtime/mod.ts";
import { ConfigError, isAbsolute, where } from "./file.ts";
import type { ConfigEntry, ConfigFile, ConfigSection } from "./file.ts";

/** Where a setting's value came from. */
export type SettingSource =
  | { from: "flag" }
  | { from: "env"; name: string }
  | { from: "file"; file: string; line: number }
  | { from: "default" };

/** A value of an option as the commands read it. */
export type OptionValue = string | boolean | string[];

/** Options and their values with where each came from. */
export interface ResolvedOptions {
  values: OptionValues;
  sources: Map<string, SettingSource>;
}

export { configurableOptions, envName } from "../options/sections.ts";

/** What a TOML value of `spec`'s type must be, for messages. */
export function typeWanted(spec: OptionSpec): string {
  if (spec.type === "boolean") return "a boolean (true or false)";
  const scalar = isNumeric(spec) ? "a number or a string" : "a string";
  return spec.multiple ? `${scalar} or an array of them` : scalar;
}

function scalarOf(value: unknown, spec: OptionSpec): string | undefined {
  if (typeof value === "string") return value;
  if (isNumeric(spec) && typeof value === "number" && Number.isFinite(value)) return String(value);
  return undefined;
}

function resolvePath(value: string, spec: OptionSpec, dir: string): string {
  if (!isPath(spec)) return value;
  return isAbsolute(value) || value === "-" ? value : `${dir}/${value}`;
}

/** Checks a file value against the option's type; throws naming the file, line and key. */
function fileValue(
  file: ConfigFile,
  section: string,
  key: string,
  entry: ConfigEntry,
  spec: OptionSpec,
): OptionValue {
  const { value } = entry;
  const wrong = () =>
    new ConfigError(
      `${where(file.path, entry.line)}: [${section}] ${key} must be ${typeWanted(spec)}, not ${
        describeValue(value)
      }`,
    );
  if (spec.type === "boolean") {
    if (typeof value !== "boolean") throw wrong();
    return value;
  }
  const items = spec.multiple && Array.isArray(value) ? value : [value];
  const texts = items.map((item) => scalarOf(item, spec));
  if (texts.some((text) => text === undefined) || (!spec.multiple && Array.isArray(value))) {
    throw wrong();
  }
  const resolved = (texts as string[]).map((text) => resolvePath(text, spec, file.dir));
  return spec.multiple ? resolved : resolved[0];
}

/** A value as a user would recognise it in a message. */
export function describeValue(value: unknown): string {
  if (Array.isArray(value)) return "an array";
  if (value instanceof Date) return "a date";
  if (value !== null && typeof value === "object") return "a table";
  return JSON.stringify(value) ?? String(value);
}

/** Parses an environment variable's text as the option's type; a list is comma-separated. */
function envValue(name: string, text: string, spec: OptionSpec): OptionValue {
  if (spec.type === "boolean") {
    const lowered = text.trim().toLowerCase();
    if (["1", "true", "yes", "on"].includes(lowered)) return true;
    if (["0", "false", "no", "off", ""].includes(lowered)) return false;
    throw new ConfigError(`${name} must be true or false (or 1 or 0), not ${JSON.stringify(text)}`);
  }
  if (!spec.multiple) return text;
  return text.split(",").map((item) => item.trim()).filter((item) => item !== "");
}

/** The file's keys of a section by option name; an unknown key is an error with a suggestion. */
export function sectionSettings(
  file: ConfigFile,
  section: ConfigSection,
  options: OptionSet,
): Map<string, { entry: ConfigEntry; value: OptionValue }> {
  const settings = new Map<string, { entry: ConfigEntry; value: OptionValue }>();
  for (const [written, entry] of file.section(section)) {
    const snake = written.replace(/_/g, "-");
    const key = Object.hasOwn(options, snake) ? snake : KEY_ALIASES[written] ?? written;
    if (!Object.hasOwn(options, key)) {
      const guess = closestName(written, Object.keys(options));
      throw new ConfigError(
        `${where(file.path, entry.line)}: unknown key ${JSON.stringify(written)} in [${section}]` +
          (guess ? `. Did you mean ${JSON.stringify(guess)}?` : ""),
      );
    }
    settings.set(key, { entry, value: fileValue(file, section, written, entry, options[key]) });
  }
  return settings;
}

/**
 * Fills the options not given on the command line from the environment, then
 * from the file's `[section]`; remembers where each came from.
 */
export function resolveOptions(
  section: ConfigSection,
  options: OptionSet,
  flags: OptionValues,
  file: ConfigFile | undefined,
): ResolvedOptions {
  const allowed = configurableOptions(options);
  const fromFile = file ? sectionSettings(file, section, allowed) : new Map();
  const values: OptionValues = { ...flags };
  const sources = new Map<string, SettingSource>();
  for (const [name, spec] of Object.entries(allowed)) {
    if (flags[name] !== undefined) {
      sources.set(name, { from: "flag" });
      continue;
    }
    const variable = envName(section, name);
    const text = runtime.env(variable);
    const setting = fromFile.get(name);
    if (text !== undefined) {
      values[name] = envValue(variable, text, spec);
      sources.set(name, { from: "env", name: variable });
    } else if (setting && file) {
      values[name] = setting.value;
      sources.set(name, { from: "file", file: file.path, line: setting.entry.line });
    } else sources.set(name, { from: "default" });
  }
  return { values, sources };
}

/** A source for messages and `inspect --explain-config`: `flag`, `env MCP_…`, `file:line`, `default`. */
export function describeSource(source: SettingSource): string {
  if (source.from === "env") return `env ${source.name}`;
  if (source.from === "file") return where(source.file, source.line);
  return source.from;
}
