/**
 * The options of `mcp-cassette verify`: the one declaration the parser, the
 * config file, the library, the docs and the JSON Schemas all read.
 *
 * @module
 */
import type { OptionSet } from "./spec.ts";
import { SCRIPT_OPTIONS, SERVER_TARGET_OPTIONS } from "./shared.ts";

/** The `verify` command's options. */
export const VERIFY_OPTIONS: OptionSet = {
  ...SERVER_TARGET_OPTIONS,
  "learn-noise": {
    type: "boolean",
    description: "Write the paths found to be noise into [verify] ignore-path of mcp-cassette.toml",
  },
  "noise-runs": {
    type: "string",
    valueName: "N",
    description:
      "When the first run finds differences, re-fire the traffic until N live runs: a path that moves between them is noise, not graded (1: off)",
    default: "2",
  },
  "ignore-path": {
    type: "string",
    multiple: true,
    valueName: "PATH",
    description:
      "Leave a response path out of the comparison; [] matches any index (result.content[].text)",
  },
  "allow-reorder": {
    type: "boolean",
    description: "A list with the same members in another order still matches",
  },
  "allow-destructive": {
    type: "boolean",
    description: "Also re-send calls to tools annotated destructiveHint: true",
  },
  "dry-run": {
    type: "boolean",
    description: "List what would be sent, without starting the server",
  },
  update: {
    type: "boolean",
    description:
      "Write the live session over CASSETTE as a fresh recording (with --only: only the chosen answers, in place)",
  },
  "update-failed": {
    type: "boolean",
    // A rewrite is asked for on each run, never by a config file CI reads.
    configurable: false,
    description:
      "Rewrite in CASSETTE only the failed exchanges' answers, scrubbed as recorded; every other line stays byte for byte",
  },
  only: {
    type: "string",
    multiple: true,
    valueName: "KIND=NAME",
    configurable: false,
    description:
      "Re-send, grade and rewrite only these exchanges: tool=NAME or method=NAME; the others stay as recorded",
  },
  "min-grade": {
    type: "string",
    valueName: "LETTER",
    description: "Exit 1 below this grade (A-F)",
  },
  "fail-on-regression": { type: "boolean", description: "Exit 1 when any exchange fails" },
  "version-is-regression": {
    type: "boolean",
    description:
      "Grade a changed serverInfo.version as a regression (by default it is information: a new build is expected to say a new version)",
  },
  json: { type: "boolean", description: "Print the report as JSON" },
  markdown: { type: "boolean", description: "Print the report as Markdown" },
  junit: { type: "string", valueName: "FILE", description: "Also write a JUnit XML report" },
  badge: {
    type: "string",
    valueName: "FILE",
    description: "Also write a shields.io endpoint badge JSON",
  },
  color: {
    type: "boolean",
    description:
      "Colour the console report even when stdout is not a terminal (NO_COLOR still wins)",
  },
  script: {
    ...SCRIPT_OPTIONS.script,
    description: "Re-send only the recorded exchanges this playbook sends (docs/playbooks.md)",
  },
};
