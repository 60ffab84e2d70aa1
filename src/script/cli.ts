/**
 * What `record --script` does with its flags: read the playbook before
 * anything starts (a bad one writes nothing), then record it.
 *
 * @module
 */
import type { OptionValues } from "../options/spec.ts";
import { flag, stringList, stringOption } from "../options/spec.ts";
import { UsageError } from "../errors/errors.ts";
import { loadPlaybook } from "./playbook.ts";
import { recordScripted } from "./record.ts";
import { revealPlaybook, scriptSecrets } from "./secrets.ts";

/** The `record` flags a scripted recording passes on to the recorder it starts. */
function recorderFlags(values: OptionValues): string[] {
  const flags: string[] = [];
  for (const rule of stringList(values, "redact")) flags.push("--redact", rule);
  for (const pack of stringList(values, "pack")) flags.push("--pack", pack);
  if (flag(values, "no-detectors")) flags.push("--no-detectors");
  if (flag(values, "force")) flags.push("--force");
  return flags;
}

/** Runs `record --script PLAYBOOK -o CASSETTE (-- COMMAND | --url URL)`; resolves with the exit code. */
export async function recordWithPlaybook(
  values: OptionValues,
  rest: string[],
  output: string,
  log: (line: string) => void,
): Promise<number> {
  const url = stringOption(values, "url");
  if (url !== undefined && rest.length > 0) {
    throw new UsageError("record takes either --url or a server command after --, not both");
  }
  if (url === undefined && rest.length === 0) {
    throw new UsageError("record --script needs a server command after -- (or --url URL)");
  }
  for (const name of ["mode", "group", "run-log"]) {
    if (stringOption(values, name) !== undefined) {
      throw new UsageError(`record --script does not take --${name}`);
    }
  }
  const loaded = await loadPlaybook(stringOption(values, "script")!);
  // Every name must be set before anything starts: an unset one writes nothing.
  const secrets = scriptSecrets(loaded, stringList(values, "secret-env"));
  const playbook = revealPlaybook(loaded, secrets);
  const flags = recorderFlags(values);
  for (const { name } of secrets) flags.push("--secret-env", name);
  return await recordScripted({
    playbook,
    output,
    ...(url !== undefined ? { url, listen: stringOption(values, "listen") } : { command: rest }),
    recorderFlags: flags,
    stopOnError: flag(values, "stop-on-error"),
    log: (line) => log(`mcp-cassette: ${line}`),
  });
}
