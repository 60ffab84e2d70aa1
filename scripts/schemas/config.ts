/**
 * The JSON Schema of `mcp-cassette.toml`, built from the option schema: each
 * section's keys are the command's configurable options (src/options/), with
 * their types, choices, defaults, descriptions and environment variables.
 *
 * @module
 */
import { sectionOptions } from "../../src/options/all.ts";
import { CONFIG_SECTIONS, envName, KEY_ALIASES } from "../../src/options/sections.ts";
import type { ConfigSection } from "../../src/options/sections.ts";
import { isNumeric } from "../../src/options/spec.ts";
import type { OptionSpec } from "../../src/options/spec.ts";
import { DIALECT, type JsonSchema } from "./common.ts";

/** What each section is for, above its keys. */
const SECTION_TEXT: Record<ConfigSection, string> = {
  record: "Defaults for `mcp-cassette record`: any of its options, by long name.",
  replay: "Defaults for `mcp-cassette replay`: any of its options, by long name.",
  verify: "Defaults for `mcp-cassette verify`: any of its options, by long name.",
  lint: "Defaults for `mcp-cassette lint`: any of its options, by long name.",
  testing: "Defaults for the test-runner helpers (`startCassette`), for what a test does not pass.",
};

function scalar(spec: OptionSpec): JsonSchema {
  if (spec.choices) return { type: "string", enum: [...spec.choices] };
  return isNumeric(spec) ? { type: ["number", "string"] } : { type: "string" };
}

/** One key's schema: the option's type, choices, default and description. */
function keySchema(section: string, name: string, spec: OptionSpec): JsonSchema {
  const value: JsonSchema = spec.type === "boolean"
    ? { type: "boolean" }
    : spec.multiple
    ? { anyOf: [scalar(spec), { type: "array", items: scalar(spec) }] }
    : scalar(spec);
  const fallback = spec.default === undefined
    ? ""
    : ` Default: ${typeof spec.default === "string" ? spec.default : String(spec.default)}.`;
  return {
    ...value,
    description: `${spec.description}.${fallback} Flag --${name}; environment ${
      envName(section, name)
    }.`.replace(/\.\./g, "."),
    ...(spec.default !== undefined ? { default: defaultValue(spec) } : {}),
    ...(spec.deprecated ? { deprecated: true } : {}),
  };
}

function defaultValue(spec: OptionSpec): unknown {
  if (typeof spec.default === "string" && isNumeric(spec) && spec.default !== "") {
    return Number(spec.default);
  }
  return spec.default;
}

/** Another spelling the reader takes for `name`'s key. */
function alias(name: string, schema: JsonSchema): JsonSchema {
  return { ...schema, description: `Another spelling of ${name}: ${schema.description}` };
}

/** A section: its keys, their snake_case spellings and the old names the reader still takes. */
function sectionSchema(section: ConfigSection): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  const options = sectionOptions(section);
  for (const [name, spec] of Object.entries(options)) {
    properties[name] = keySchema(section, name, spec);
  }
  for (const [name, spec] of Object.entries(options)) {
    const snake = name.replace(/-/g, "_");
    if (snake !== name) properties[snake] = alias(name, keySchema(section, name, spec));
  }
  for (const [other, name] of Object.entries(KEY_ALIASES)) {
    if (Object.hasOwn(options, name) && !Object.hasOwn(properties, other)) {
      properties[other] = alias(name, keySchema(section, name, options[name]));
    }
  }
  return {
    type: "object",
    description: SECTION_TEXT[section],
    properties,
    additionalProperties: false,
  };
}

/** The schema of `mcp-cassette.toml`. */
export function configSchema(): JsonSchema {
  return {
    $schema: DIALECT,
    title: "mcp-cassette.toml",
    description:
      "Settings of mcp-cassette, read from the nearest mcp-cassette.toml. Precedence: flag, then environment (MCP_CASSETTE_<SECTION>_<KEY>), then this file, then the default. See docs/config.md.",
    type: "object",
    properties: Object.fromEntries(
      CONFIG_SECTIONS.map((section) => [section, sectionSchema(section)]),
    ),
    additionalProperties: false,
  };
}
