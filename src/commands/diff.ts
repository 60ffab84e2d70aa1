/**
 * `mcp-cassette diff`.
 *
 * @module
 */
import type { Command } from "../cli/command.ts";
import { UsageError } from "../errors.ts";

/** The `diff` command (not built yet). */
export const command: Command = {
  name: "diff",
  summary: "(not built yet)",
  usage: "diff",
  options: {},
  run() {
    return Promise.reject(new UsageError("The diff command is not built yet"));
  },
};
