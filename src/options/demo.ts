/**
 * The options of `mcp-cassette demo`: the one declaration the parser, the
 * config file, the library, the docs and the JSON Schemas all read.
 *
 * @module
 */
import type { OptionSet } from "./spec.ts";

/** The `demo` command's options. */
export const DEMO_OPTIONS: OptionSet = {
  out: {
    type: "string",
    valueName: "DIR",
    description: "Keep the demo cassette in DIR (default: a temp folder, removed at the end)",
  },
  keep: {
    type: "boolean",
    description: "Keep the temp folder with the demo cassette, and say where it is",
  },
  color: { type: "boolean", description: "Colour the reports (NO_COLOR still wins)" },
  serve: {
    type: "string",
    valueName: "VARIANT",
    description: "Internal: serve the healthy or regressed demo server on stdio",
    hidden: true,
  },
};
