/**
 * Every command of the CLI, in the order the overview lists them.
 *
 * @module
 */
import type { Command } from "./command.ts";
import { command as record } from "../commands/record.ts";
import { command as replay } from "../commands/replay.ts";
import { command as check } from "../commands/check.ts";
import { command as verify } from "../commands/verify.ts";
import { command as demo } from "../commands/demo.ts";
import { command as lint } from "../commands/lint.ts";
import { command as diff } from "../commands/diff.ts";
import { command as inspect } from "../commands/inspect.ts";
import { command as importCommand } from "../commands/import.ts";
import { command as redact } from "../commands/redact.ts";

/** The commands. */
export const commands: readonly Command[] = [
  record,
  replay,
  check,
  verify,
  demo,
  lint,
  diff,
  inspect,
  importCommand,
  redact,
];
