/**
 * The options of `mcp-cassette check`: the one declaration the parser, the
 * config file, the library, the docs and the JSON Schemas all read.
 *
 * @module
 */
import type { OptionSet } from "./spec.ts";
import { SCRIPT_OPTIONS, SERVER_TARGET_OPTIONS } from "./shared.ts";

/** The `check` command's options. */
export const CHECK_OPTIONS: OptionSet = {
  ...SERVER_TARGET_OPTIONS,
  json: { type: "boolean", description: "Print the report as JSON" },
  ...SCRIPT_OPTIONS,
};
