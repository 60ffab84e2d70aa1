/**
 * The options of `mcp-cassette diff`: the one declaration the parser, the
 * config file, the library, the docs and the JSON Schemas all read.
 *
 * @module
 */
import type { OptionSet } from "./spec.ts";

/** The `diff` command's options. */
export const DIFF_OPTIONS: OptionSet = {
  "tools-only": { type: "boolean", description: "Compare tools only", multiple: false },
  format: {
    type: "string",
    valueName: "FORMAT",
    description: "text or json",
    default: "text",
    multiple: false,
  },
};
