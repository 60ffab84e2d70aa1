/**
 * The options of `mcp-cassette wrap`: the one declaration the parser, the
 * config file, the library, the docs and the JSON Schemas all read.
 *
 * @module
 */
import type { OptionSet } from "./spec.ts";

/** The `wrap` command's options. */
export const WRAP_OPTIONS: OptionSet = {
  server: {
    type: "string",
    multiple: true,
    valueName: "NAME",
    description: "A server of the config to wrap (repeatable)",
  },
  all: { type: "boolean", description: "Wrap every stdio server of the config" },
  record: {
    type: "string",
    valueName: "DIR",
    description: "Record each chosen server into DIR/<server>.cassette.jsonl",
  },
  replay: {
    type: "string",
    valueName: "DIR",
    description: "Replay each chosen server from DIR/<server>.cassette.jsonl",
  },
  unwrap: { type: "boolean", description: "Put back the config as it was before wrap" },
};
