/**
 * The options of `mcp-cassette lint`: the one declaration the parser, the
 * config file, the library, the docs and the JSON Schemas all read.
 *
 * @module
 */
import type { OptionSet } from "./spec.ts";

/** The `lint` command's options. */
export const LINT_OPTIONS: OptionSet = {
  baseline: {
    type: "string",
    valueName: "OLD",
    description:
      "An earlier cassette of the same server: changed descriptions/schemas are findings",
    multiple: false,
  },
  select: {
    type: "string",
    valueName: "IDS",
    description: "Only these rule ids or prefixes (comma-separated)",
    multiple: true,
  },
  ignore: {
    type: "string",
    valueName: "IDS",
    description: "Skip these rule ids or prefixes (comma-separated)",
    multiple: true,
  },
  pack: {
    type: "string",
    valueName: "FILE",
    description: "A TOML rule pack to add",
    multiple: true,
  },
  "fail-on": {
    type: "string",
    valueName: "LEVEL",
    description: "Lowest severity that fails: error or warning",
    default: "error",
    multiple: false,
  },
  format: {
    type: "string",
    valueName: "FORMAT",
    description: "text, json or sarif",
    default: "text",
    multiple: false,
  },
  "max-age": {
    type: "string",
    valueName: "DURATION",
    description: "A cassette recorded longer ago than this (30d, 12h) is an MCL010 finding",
  },
  config: {
    configurable: false,
    type: "string",
    valueName: "FILE",
    description: "Config file to read [lint] from (default: the nearest mcp-cassette.toml)",
    multiple: false,
  },
};
