/**
 * Options several commands share: how `check` and `verify` name their
 * server, the redaction options of `record` and `replay`, and the playbook
 * options of `record`, `check` and `verify`, and the bearer token of an
 * HTTP `replay` or `record`.
 *
 * @module
 */
import type { OptionSet } from "./spec.ts";

/** How `check` and `verify` name the server they talk to. */
export const SERVER_TARGET_OPTIONS: OptionSet = {
  stdio: {
    type: "string",
    valueName: "COMMAND",
    description: "Server command line, split like a shell would",
  },
  url: { type: "string", valueName: "URL", description: "Server URL (Streamable HTTP)" },
  "timeout-ms": {
    type: "string",
    valueName: "MS",
    description: "Time each request may take",
    default: "10000",
  },
};

/** The redaction flags of `record` and `replay`. */
export const REDACTION_OPTIONS: OptionSet = {
  redact: {
    type: "string",
    multiple: true,
    valueName: "RULE",
    description:
      "Also redact values under keys matching a glob (key:GLOB) or at a JSON pointer (/a/b)",
  },
  pack: {
    type: "string",
    multiple: true,
    valueName: "FILE",
    description: "A TOML redaction rule pack",
  },
  "no-detectors": {
    type: "boolean",
    description: "Turn off the free-text detectors (credential keys stay on)",
  },
};

/** The playbook flags of `record`, `check` and `verify`. */
export const SCRIPT_OPTIONS: OptionSet = {
  script: {
    type: "string",
    valueName: "PLAYBOOK",
    description: "Drive the server with this playbook (JSONC or TOML, see docs/playbooks.md)",
  },
  "stop-on-error": {
    type: "boolean",
    description: "With --script: stop at the first step that fails",
  },
};

/** The bearer-token flag of `replay --listen` and `record --url` (docs/security.md). */
export const TOKEN_OPTIONS: OptionSet = {
  token: {
    type: "string",
    valueName: "TOKEN",
    // A secret has no place in a config file that may be committed; its variable is MCP_CASSETTE_TOKEN.
    configurable: false,
    description:
      "Over HTTP: every request must carry Authorization: Bearer TOKEN, or gets 401 (default: MCP_CASSETTE_TOKEN, better: other users can read a command line)",
  },
};
