/**
 * Every command's options by command name, and every config section's: for
 * what reads them all (`inspect --explain-config`, docs/cli.md, the JSON
 * Schemas). A command at start-up imports only its own file.
 *
 * @module
 */
import { CHECK_OPTIONS } from "./check.ts";
import { DEMO_OPTIONS } from "./demo.ts";
import { DIFF_OPTIONS } from "./diff.ts";
import { IMPORT_OPTIONS } from "./import.ts";
import { INSPECT_OPTIONS } from "./inspect.ts";
import { LINT_OPTIONS } from "./lint.ts";
import { PRUNE_OPTIONS } from "./prune.ts";
import { RECORD_OPTIONS } from "./record.ts";
import { REDACT_OPTIONS } from "./redact.ts";
import { REPLAY_OPTIONS } from "./replay.ts";
import { VERIFY_OPTIONS } from "./verify.ts";
import { VIEW_OPTIONS } from "./view.ts";
import { WRAP_OPTIONS } from "./wrap.ts";
import { configurableOptions } from "./sections.ts";
import type { ConfigSection } from "./sections.ts";
import type { OptionSet } from "./spec.ts";
import { TESTING_OPTIONS } from "./testing.ts";

/** The options of each command, in the overview's order. */
export const COMMAND_OPTIONS: Readonly<Record<string, OptionSet>> = {
  record: RECORD_OPTIONS,
  replay: REPLAY_OPTIONS,
  check: CHECK_OPTIONS,
  verify: VERIFY_OPTIONS,
  demo: DEMO_OPTIONS,
  lint: LINT_OPTIONS,
  diff: DIFF_OPTIONS,
  inspect: INSPECT_OPTIONS,
  "import": IMPORT_OPTIONS,
  redact: REDACT_OPTIONS,
  wrap: WRAP_OPTIONS,
  view: VIEW_OPTIONS,
  prune: PRUNE_OPTIONS,
};

/** The keys a section of `mcp-cassette.toml` may set: the command's configurable options, or `[testing]`'s. */
export function sectionOptions(section: ConfigSection): OptionSet {
  return section === "testing" ? TESTING_OPTIONS : configurableOptions(COMMAND_OPTIONS[section]);
}
