/**
 * Every command of the CLI, in the order the overview lists them. Commands
 * load on demand: `replay` in a client's config should not pay for parsing
 * the lint rules or the verify grader at every start.
 *
 * @module
 */
import type { Command } from "./command.ts";

/** How to load each command's module. */
const loaders: Record<string, () => Promise<{ command: Command }>> = {
  record: () => import("../commands/record.ts"),
  replay: () => import("../commands/replay.ts"),
  check: () => import("../commands/check.ts"),
  verify: () => import("../commands/verify.ts"),
  demo: () => import("../commands/demo.ts"),
  lint: () => import("../commands/lint.ts"),
  diff: () => import("../commands/diff.ts"),
  inspect: () => import("../commands/inspect.ts"),
  import: () => import("../commands/import.ts"),
  redact: () => import("../commands/redact.ts"),
};

/** The command names, in overview order. */
export const commandNames: readonly string[] = Object.keys(loaders);

/** Loads one command, or undefined for an unknown name. */
export async function loadCommand(name: string): Promise<Command | undefined> {
  return Object.hasOwn(loaders, name) ? (await loaders[name]()).command : undefined;
}

/** Loads every command (for the overview and the generated reference). */
export async function loadCommands(): Promise<Command[]> {
  return await Promise.all(commandNames.map(async (name) => (await loaders[name]()).command));
}
