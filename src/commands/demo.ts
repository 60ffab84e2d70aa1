/**
 * `mcp-cassette demo`.
 *
 * @module
 */
import type { Command } from "../cli/command.ts";
import { UsageError } from "../errors.ts";

/** The `demo` command (not built yet). */
export const command: Command = {
  name: "demo",
  summary: "(not built yet)",
  usage: "demo",
  options: {},
  run() {
    return Promise.reject(new UsageError("The demo command is not built yet"));
  },
};
