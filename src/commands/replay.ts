/**
 * `mcp-cassette replay`.
 *
 * @module
 */
import type { Command } from "../cli/command.ts";
import { UsageError } from "../errors.ts";

/** The `replay` command (not built yet). */
export const command: Command = {
  name: "replay",
  summary: "(not built yet)",
  usage: "replay",
  options: {},
  run() {
    return Promise.reject(new UsageError("The replay command is not built yet"));
  },
};
