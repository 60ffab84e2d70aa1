/**
 * The `--script` and `--stop-on-error` flags of `record`, `check` and
 * `verify`. Kept apart from the playbook code, which those commands load
 * only when the flag is given.
 *
 * @module
 */
import type { OptionSpec } from "../cli/command.ts";

/** The playbook flags. */
export const SCRIPT_OPTIONS: Record<string, OptionSpec> = {
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
