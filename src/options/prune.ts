/**
 * The options of `mcp-cassette prune`: the one declaration the parser, the
 * config file, the library, the docs and the JSON Schemas all read.
 *
 * @module
 */
import type { OptionSet } from "./spec.ts";

/** The `prune` command's options. */
export const PRUNE_OPTIONS: OptionSet = {
  report: {
    type: "string",
    multiple: true,
    valueName: "FILE",
    description: "A replay report of a run against this cassette, or a folder of reports",
  },
  output: {
    type: "string",
    short: "o",
    valueName: "FILE",
    description: "Write the pruned cassette here instead of replacing CASSETTE",
  },
  optional: {
    type: "string",
    multiple: true,
    valueName: "TOOL|LINE",
    description:
      "Mark these recordings optional (they may go unplayed) and keep them: a tool, prompt or resource name, or a request's cassette line",
  },
  "dry-run": { type: "boolean", description: "Print what would be removed; write nothing" },
};
