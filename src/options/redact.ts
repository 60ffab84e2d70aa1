/**
 * The options of `mcp-cassette redact`: the one declaration the parser, the
 * config file, the library, the docs and the JSON Schemas all read.
 *
 * @module
 */
import type { OptionSet } from "./spec.ts";

/** The `redact` command's options. */
export const REDACT_OPTIONS: OptionSet = {
  redact: {
    type: "string",
    multiple: true,
    valueName: "RULE",
    description: "A rule: /json/pointer, key:GLOB or regex:PATTERN",
  },
  pack: { type: "string", multiple: true, valueName: "FILE", description: "A TOML rule pack" },
  "no-detectors": { type: "boolean", description: "Turn off the free-text detectors" },
  scan: {
    type: "boolean",
    description: "Report what would be redacted (exit 4 if anything) without writing",
  },
};
