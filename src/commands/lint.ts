/**
 * `mcp-cassette lint`.
 *
 * @module
 */
import type { Command } from "../cli/command.ts";
import { UsageError } from "../errors.ts";

/** The `lint` command (not built yet). */
export const command: Command = {
  name: "lint",
  summary: "(not built yet)",
  usage: "lint",
  options: {},
  run() {
    return Promise.reject(new UsageError("The lint command is not built yet"));
  },
};
