/**
 * The options of `mcp-cassette replay`: the one declaration the parser, the
 * config file, the library, the docs and the JSON Schemas all read.
 *
 * @module
 */
import type { OptionSet } from "./spec.ts";
import { REDACTION_OPTIONS, TOKEN_OPTIONS } from "./shared.ts";

/** The `replay` command's options. */
export const REPLAY_OPTIONS: OptionSet = {
  listen: {
    type: "string",
    valueName: "HOST:PORT",
    description: "Serve Streamable HTTP here instead of stdio",
  },
  ...TOKEN_OPTIONS,
  "max-streams": {
    type: "string",
    valueName: "N",
    description: "With --listen: most SSE streams open at once; one more gets 503",
    default: "1024",
  },
  strict: {
    type: "boolean",
    description:
      "A client answer to a server request that differs from the recording fails (and --lenient is off)",
  },
  lenient: {
    type: "boolean",
    description:
      "A request with no exact recording takes the next unused answer of the same method and tool (reported as inexact); the default is a miss",
  },
  "match-ignore": {
    type: "string",
    multiple: true,
    valueName: "PATH",
    description:
      "Leave this path out of matching, e.g. params.arguments.request_id or params.arguments.*.timestamp (repeatable; answers are not changed)",
  },
  "answer-timeout-ms": {
    type: "string",
    valueName: "MS",
    description: "How long to wait for the client to answer a server request",
    default: "10000",
  },
  faults: { type: "string", valueName: "FILE", description: "A fault overlay (JSON or JSONC)" },
  seed: {
    type: "string",
    valueName: "N",
    description: "Seed for probabilistic faults (overrides the file's)",
  },
  pace: {
    choices: ["instant", "recorded"],
    type: "string",
    valueName: "MODE",
    description: "instant, or recorded to keep the recorded gaps",
    default: "instant",
  },
  "pace-scale": {
    type: "string",
    valueName: "N",
    description: "Multiply recorded gaps",
    default: "1",
  },
  "pace-cap-ms": {
    type: "string",
    valueName: "MS",
    description: "Cap any one gap (0: no cap)",
    default: "5000",
  },
  "fail-on-unplayed": {
    type: "boolean",
    description: "Exit 3 when recorded requests were never asked for",
  },
  quiet: { type: "boolean", short: "q", description: "Print nothing on stderr but misses" },
  control: {
    type: "boolean",
    description:
      "/__cassette/journal, reset, faults, cassette: with --listen behind its Host/Origin guard; over stdio (--run-log) on a loopback port (docs/control.md)",
  },
  "on-miss": {
    choices: ["error", "live"],
    type: "string",
    valueName: "WHAT",
    description:
      "error (the default): a miss is a JSON-RPC error; live: it goes to the live server given after -- (or by --url) and nothing is written (spy mode)",
  },
  url: {
    type: "string",
    valueName: "URL",
    description:
      "With --on-miss live or --new-episodes: the live server's URL (Streamable HTTP), in place of a command after --",
  },
  append: {
    type: "boolean",
    description: "With --on-miss live: append what the live server answered (as --new-episodes)",
  },
  "new-episodes": {
    type: "boolean",
    description:
      "Send misses to the live server given after -- and append the exchanges to the cassette",
  },
  group: {
    type: "string",
    valueName: "ID",
    description: "The recording this run belongs to (set by the library)",
  },
  "run-log": {
    type: "string",
    valueName: "FILE",
    description: "Append what this run did, as JSON lines, to FILE (for the library)",
  },
  report: {
    type: "string",
    valueName: "FILE",
    description: "Also write the end-of-session report as JSON (for clients that hide stderr)",
  },
  "learn-ignores": {
    type: "boolean",
    description:
      "After the session, write the --match-ignore paths the misses suggested into [replay] of mcp-cassette.toml",
  },
  "max-age": {
    type: "string",
    valueName: "DURATION",
    description:
      "A cassette recorded longer ago than this (30d, 12h, 1d12h) is expired: see --on-expired",
  },
  "on-expired": {
    choices: ["warn", "fail"],
    type: "string",
    valueName: "WHAT",
    description:
      "What an expired cassette does: warn (the default) or fail (exit 8); the test helpers also take rerecord",
  },
  ...REDACTION_OPTIONS,
};
