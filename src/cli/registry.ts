/**
 * Every command of the CLI, in the order the overview lists them. Commands
 * load on demand: `replay` in a client's config should not pay for parsing
 * the lint rules or the verify grader at every start.
 *
 * @module
 */
import type { Command } from "./command.ts";

/**
 * The folder of the command modules. The specifiers below are built from it,
 * not written out, on purpose: Deno loads and prepares the module graph of
 * every literal `import("…")` when the importing module loads, which cost
 * `replay` 5-8 ms of its start-up for commands it never runs. (The npm build
 * rewrites such specifiers at run time; the compiled binary is checked by
 * tests/dist.)
 */
const COMMANDS = "../commands/";

/** How to load each command's module. */
const loaders: Record<string, () => Promise<{ command: Command }>> = {
  record: () => import(COMMANDS + "record.ts"),
  replay: () => import(COMMANDS + "replay.ts"),
  check: () => import(COMMANDS + "check.ts"),
  verify: () => import(COMMANDS + "verify.ts"),
  demo: () => import(COMMANDS + "demo.ts"),
  lint: () => import(COMMANDS + "lint.ts"),
  diff: () => import(COMMANDS + "diff.ts"),
  inspect: () => import(COMMANDS + "inspect.ts"),
  import: () => import(COMMANDS + "import.ts"),
  redact: () => import(COMMANDS + "redact.ts"),
  wrap: () => import(COMMANDS + "wrap.ts"),
  view: () => import(COMMANDS + "view.ts"),
  prune: () => import(COMMANDS + "prune.ts"),
  runs: () => import(COMMANDS + "runs.ts"),
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
