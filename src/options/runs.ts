/**
 * The options of `mcp-cassette runs`: the one declaration the parser, the
 * config file, the library, the docs and the JSON Schemas all read.
 *
 * @module
 */
import type { OptionSet } from "./spec.ts";

/** The `runs` command's options. */
export const RUNS_OPTIONS: OptionSet = {
  cassette: {
    type: "string",
    valueName: "FILE",
    description:
      "The cassette the runs replayed: argument drift is measured against its recordings (default: the one the reports name)",
  },
  format: {
    type: "string",
    valueName: "FORMAT",
    description: "table, json or markdown (for a CI summary)",
    default: "table",
    choices: ["table", "json", "markdown"],
  },
};
