/**
 * The keys of `mcp-cassette.toml`'s `[testing]` section: defaults for the
 * test-runner helpers (`startCassette`), declared like a command's options.
 *
 * @module
 */
import type { OptionSet } from "./spec.ts";

/** The keys of `[testing]`, described like command options so one checker serves both. */
export const TESTING_OPTIONS: OptionSet = {
  "cassette-dir": {
    type: "string",
    valueName: "DIR",
    description: "Folder that relative cassette paths are taken from (relative to the file)",
  },
  mode: {
    type: "string",
    valueName: "MODE",
    description: "Record mode: once, none, all, new_episodes (MCP_CASSETTE_MODE wins)",
    default: "once",
  },
  match: {
    choices: ["exact", "lenient"],
    type: "string",
    valueName: "MATCH",
    description: "How replay matches requests: exact (the default) or lenient (replay --lenient)",
  },
  "match-ignore": {
    type: "string",
    multiple: true,
    valueName: "PATH",
    description: "Request paths replay leaves out of matching (--match-ignore)",
  },
  "on-miss": {
    choices: ["error", "live"],
    type: "string",
    valueName: "WHAT",
    description:
      "error (the default), or live: a miss goes to the live server and nothing is written (spy mode)",
  },
  "max-age": {
    type: "string",
    valueName: "DURATION",
    description:
      "A cassette recorded longer ago than this (30d, 12h) is expired (replay --max-age)",
  },
  "on-expired": {
    choices: ["warn", "fail", "rerecord"],
    type: "string",
    valueName: "WHAT",
    description:
      "What an expired cassette does: warn (the default), fail (exit 8), or rerecord in mode once",
  },
  redact: {
    type: "string",
    multiple: true,
    valueName: "RULE",
    description: "Redaction rules for recording and replay (--redact)",
  },
  pack: {
    type: "string",
    multiple: true,
    valueName: "FILE",
    description: "Redaction rule packs (--pack)",
  },
};
