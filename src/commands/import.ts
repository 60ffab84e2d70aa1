/**
 * `mcp-cassette import`.
 *
 * @module
 */
import type { Command } from "../cli/command.ts";
import { UsageError } from "../errors.ts";

/** The `import` command (not built yet). */
export const command: Command = {
  name: "import",
  summary: "(not built yet)",
  usage: "import",
  options: {},
  run() {
    return Promise.reject(new UsageError("The import command is not built yet"));
  },
};
