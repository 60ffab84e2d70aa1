/**
 * `mcp-cassette redact`.
 *
 * @module
 */
import type { Command } from "../cli/command.ts";
import { UsageError } from "../errors.ts";

/** The `redact` command (not built yet). */
export const command: Command = {
  name: "redact",
  summary: "(not built yet)",
  usage: "redact",
  options: {},
  run() {
    return Promise.reject(new UsageError("The redact command is not built yet"));
  },
};
