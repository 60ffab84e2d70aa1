/**
 * The options of `mcp-cassette import`: the one declaration the parser, the
 * config file, the library, the docs and the JSON Schemas all read.
 *
 * @module
 */
import type { OptionSet } from "./spec.ts";

/** The `import` command's options. */
export const IMPORT_OPTIONS: OptionSet = {
  output: {
    type: "string",
    short: "o",
    valueName: "OUT",
    description: "Where to write the converted cassette",
    multiple: false,
  },
  force: { type: "boolean", description: "Overwrite OUT if it exists", multiple: false },
};
