/**
 * Secrets in a scripted recording (`record --script` with `--secret-env`,
 * or a playbook that holds `[SECRET:NAME]`): the playbook is sent with each
 * placeholder replaced by the value of `$NAME`, so an authenticated server
 * sees real credentials, and the recorder is told every name, so what it
 * writes holds the placeholder again and never the value.
 *
 * @module
 */
import type { Json, JsonObject } from "../jsonrpc/messages.ts";
import { UsageError } from "../errors/errors.ts";
import { presentSecrets, readSecrets, revealSecrets } from "../secrets/env.ts";
import type { Secret } from "../secrets/env.ts";
import type { Playbook } from "./playbook.ts";

/** A placeholder as `record --secret-env` writes it; the group is the name. */
const PLACEHOLDER = /\[SECRET:([A-Za-z_][A-Za-z0-9_]*)\]/g;

/** The names of the placeholders in what the playbook sends (its steps and answers). */
export function playbookSecretNames(playbook: Playbook): string[] {
  const text = JSON.stringify([playbook.steps, playbook.answers]);
  return [...new Set([...text.matchAll(PLACEHOLDER)].map((match) => match[1]))];
}

/**
 * The secrets a scripted recording uses: the `--secret-env` names, then
 * the playbook's own placeholders. A name that is not set is a UsageError
 * naming it (and the flag or the playbook it came from), exit 2, before
 * anything starts.
 */
export function scriptSecrets(playbook: Playbook, flagged: readonly string[]): Secret[] {
  const fromFlags = readSecrets(flagged, "--secret-env");
  const others = playbookSecretNames(playbook).filter((name) => !flagged.includes(name));
  const found = presentSecrets(others);
  const unset = others.find((name) => !found.some((secret) => secret.name === name));
  if (unset !== undefined) {
    throw new UsageError(
      `${playbook.file} holds [SECRET:${unset}]: the environment variable ${unset} is not set`,
    );
  }
  return [...fromFlags, ...found];
}

/** The playbook with every placeholder of `secrets` replaced by its value, in steps and answers. */
export function revealPlaybook(playbook: Playbook, secrets: readonly Secret[]): Playbook {
  if (secrets.length === 0) return playbook;
  const reveal = <T>(value: T): T => revealSecrets(value as unknown as Json, secrets) as T;
  return {
    ...playbook,
    steps: playbook.steps.map((step) =>
      "params" in step && step.params
        ? { ...step, params: reveal(step.params) as JsonObject }
        : step
    ),
    answers: reveal(playbook.answers),
  };
}
