/**
 * The options of `mcp-cassette inspect`: the one declaration the parser, the
 * config file, the library, the docs and the JSON Schemas all read.
 *
 * @module
 */
import type { OptionSet } from "./spec.ts";

/** The `inspect` command's options. */
export const INSPECT_OPTIONS: OptionSet = {
  timeline: {
    type: "boolean",
    description: "One line per entry: t, session, dir, kind, method/id",
    multiple: false,
  },
  grep: {
    type: "string",
    valueName: "TEXT",
    description: "Only entries containing TEXT (case-insensitive)",
    multiple: false,
  },
  faults: {
    type: "string",
    valueName: "FILE",
    description: "Show which recorded requests each fault of an overlay would hit",
    multiple: false,
  },
  format: {
    type: "string",
    valueName: "FORMAT",
    description: "text or json",
    default: "text",
    multiple: false,
  },
  report: {
    type: "string",
    valueName: "REPORT",
    description: "Print the journal of a replay report (replay --report or --run-log) instead",
    multiple: false,
  },
  "explain-config": {
    type: "boolean",
    description:
      "Print each setting of mcp-cassette.toml, its value and where it came from (env, file:line, default)",
  },
};
