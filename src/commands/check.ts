/**
 * `mcp-cassette check`.
 *
 * @module
 */
import type { Command } from "../cli/command.ts";
import { UsageError } from "../errors.ts";

/** The `check` command (not built yet). */
export const command: Command = {
  name: "check",
  summary: "(not built yet)",
  usage: "check",
  options: {},
  run() {
    return Promise.reject(new UsageError("The check command is not built yet"));
  },
};
