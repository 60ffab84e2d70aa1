/**
 * `mcp-cassette verify`.
 *
 * @module
 */
import type { Command } from "../cli/command.ts";
import { UsageError } from "../errors.ts";

/** The `verify` command (not built yet). */
export const command: Command = {
  name: "verify",
  summary: "(not built yet)",
  usage: "verify",
  options: {},
  run() {
    return Promise.reject(new UsageError("The verify command is not built yet"));
  },
};
