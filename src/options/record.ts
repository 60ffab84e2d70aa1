/**
 * The options of `mcp-cassette record`: the one declaration the parser, the
 * config file, the library, the docs and the JSON Schemas all read.
 *
 * @module
 */
import type { OptionSet } from "./spec.ts";
import { REDACTION_OPTIONS, SCRIPT_OPTIONS, TOKEN_OPTIONS } from "./shared.ts";
import { DEFAULT_GRACE_MS } from "../runtime/stop_child.ts";

/** The `record` command's options. */
export const RECORD_OPTIONS: OptionSet = {
  output: {
    type: "string",
    short: "o",
    valueName: "CASSETTE",
    description: "The cassette file to write",
  },
  url: {
    type: "string",
    valueName: "URL",
    description: "Record a Streamable HTTP or HTTP+SSE server at this URL",
  },
  listen: {
    type: "string",
    valueName: "HOST:PORT",
    description: "Where the HTTP recorder listens",
    default: "127.0.0.1:0",
  },
  ...TOKEN_OPTIONS,
  force: {
    type: "boolean",
    description:
      "Replace a symbolic link at the cassette path with the cassette (never writing through it); break a live claim",
  },
  "append-window-ms": {
    type: "string",
    valueName: "MS",
    description:
      "A relaunch of the same command within this window joins the cassette as a new session",
    default: "10000",
  },
  mode: {
    type: "string",
    valueName: "MODE",
    description:
      "Record mode for test suites: once, none, all, new_episodes (MCP_CASSETTE_MODE wins); without it, every launch records, as all does",
  },
  group: {
    type: "string",
    valueName: "ID",
    description:
      "The recording this launch belongs to: launches of one group share the claim (set by the library)",
  },
  "run-log": {
    type: "string",
    valueName: "FILE",
    description: "Append what this launch did, as JSON lines, to FILE (for the library)",
  },
  grace: {
    type: "string",
    valueName: "MS",
    description:
      "How long the server may outstay the end of its input before SIGTERM, and SIGTERM before SIGKILL",
    default: String(DEFAULT_GRACE_MS),
  },
  "secret-env": {
    type: "string",
    multiple: true,
    valueName: "NAME",
    description:
      "Replace the value of this environment variable by [SECRET:NAME] everywhere it is recorded (repeatable)",
  },
  ...REDACTION_OPTIONS,
  ...SCRIPT_OPTIONS,
};
