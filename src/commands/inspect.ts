/**
 * `mcp-cassette inspect`.
 *
 * @module
 */
import type { Command } from "../cli/command.ts";
import { UsageError } from "../errors.ts";

/** The `inspect` command (not built yet). */
export const command: Command = {
  name: "inspect",
  summary: "(not built yet)",
  usage: "inspect",
  options: {},
  run() {
    return Promise.reject(new UsageError("The inspect command is not built yet"));
  },
};
