/**
 * `mcp-cassette record`.
 *
 * @module
 */
import type { Command } from "../cli/command.ts";
import { UsageError } from "../errors.ts";

/** The `record` command (not built yet). */
export const command: Command = {
  name: "record",
  summary: "(not built yet)",
  usage: "record",
  options: {},
  run() {
    return Promise.reject(new UsageError("The record command is not built yet"));
  },
};
