/**
 * The options of `mcp-cassette view`: the one declaration the parser, the
 * config file, the library, the docs and the JSON Schemas all read.
 *
 * @module
 */
import type { OptionSet } from "./spec.ts";

/** The `view` command's options. */
export const VIEW_OPTIONS: OptionSet = {
  output: {
    type: "string",
    short: "o",
    valueName: "FILE",
    description: "The page to write (default: the cassette's name with .html)",
  },
  report: {
    type: "string",
    multiple: true,
    valueName: "FILE",
    description: "A replay report of a run against this cassette, or a folder of reports",
  },
};
