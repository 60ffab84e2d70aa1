/**
 * The sections of `mcp-cassette.toml` and how an option becomes a config key
 * and an environment variable: the keys of `[record]`, `[replay]`,
 * `[verify]` and `[lint]` are the long option names of the command, so an
 * option added to one of them is a key and a variable with no more work.
 *
 * @module
 */
import type { OptionSet, OptionSpec } from "./spec.ts";

/** The sections the file may have: four commands, and the test helpers. */
export const CONFIG_SECTIONS = ["record", "replay", "verify", "lint", "testing"] as const;

/** One of {@linkcode CONFIG_SECTIONS}. */
export type ConfigSection = typeof CONFIG_SECTIONS[number];

/** Whether `name` is one of {@linkcode CONFIG_SECTIONS}. */
export function isConfigSection(name: string): name is ConfigSection {
  return (CONFIG_SECTIONS as readonly string[]).includes(name);
}

/** The environment variable of a setting: `MCP_CASSETTE_REPLAY_STRICT`. */
export function envName(section: string, key: string): string {
  return `MCP_CASSETTE_${section}_${key}`.toUpperCase().replace(/-/g, "_");
}

/**
 * Keys kept from before the file had a schema, by the option they set
 * (`[lint] packs`); snake_case spellings of every key are accepted too.
 */
export const KEY_ALIASES: Readonly<Record<string, string>> = { packs: "pack" };

/** Whether an option may be set from the file and the environment. */
export function isConfigurable(spec: OptionSpec): boolean {
  return !spec.hidden && spec.configurable !== false;
}

/** The options a section may set: all of the command's but internal and flag-only ones. */
export function configurableOptions(options: OptionSet): OptionSet {
  return Object.fromEntries(Object.entries(options).filter(([, spec]) => isConfigurable(spec)));
}
