/**
 * `check --script`: the playbook's client shakes hands (its name and
 * capabilities, its answers to the server's requests), and once the surface
 * is listed its steps run; each step that fails is an error finding.
 *
 * @module
 */
import type { CheckScript } from "../check/run.ts";
import type { OptionValues } from "../options/spec.ts";
import { flag, stringOption } from "../options/spec.ts";
import { UsageError } from "../errors/errors.ts";
import { loadPlaybook } from "./playbook.ts";
import { revealPlaybook, scriptSecrets } from "./secrets.ts";
import type { Playbook } from "./playbook.ts";
import { playbookConnectionOptions, playbookHandshake, runSteps } from "./runner.ts";

/** The hooks `runCheck` takes, for this playbook. */
export function checkScript(playbook: Playbook, stopOnError: boolean): CheckScript {
  return {
    connection: playbookConnectionOptions(playbook),
    handshake: playbookHandshake(playbook),
    async run(connection, timeoutMs) {
      const steps = await runSteps(connection, playbook, { timeoutMs, stopOnError });
      return steps.filter((step) => step.status !== "ok").map((step) => ({
        severity: step.status === "failed" ? "error" as const : "warning" as const,
        where: `${playbook.file} step ${step.number} (${step.label})`,
        message: step.status === "failed"
          ? `the step failed: ${step.detail}`
          : `not run: ${step.detail}`,
      }));
    },
  };
}

/** The `check --script` hooks the flags ask for, or undefined without `--script`. */
export async function checkScriptFromFlags(
  values: OptionValues,
): Promise<CheckScript | undefined> {
  const file = stringOption(values, "script");
  if (file === undefined) {
    if (flag(values, "stop-on-error")) throw new UsageError("--stop-on-error needs --script");
    return undefined;
  }
  // A playbook's [SECRET:NAME] is sent as $NAME, as record --script sends it.
  const playbook = await loadPlaybook(file);
  const revealed = revealPlaybook(playbook, scriptSecrets(playbook, []));
  return checkScript(revealed, flag(values, "stop-on-error"));
}
