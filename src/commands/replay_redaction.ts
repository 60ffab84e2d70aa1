/**
 * The redaction a replay re-applies to live requests, and the redactor of
 * what `--new-episodes` appends: the recording's rules (its header says
 * which) and its key, plus any rules given on the command line.
 *
 * @module
 */
import type { OptionValues } from "../cli/command.ts";
import { stringList } from "../cli/command.ts";
import type { CassetteHeader, RedactionInfo } from "../cassette/format.ts";
import type { ReplayOptions } from "../replay/engine.ts";
import type { Redactor } from "../redact/redactor.ts";
import { runtime } from "../runtime/mod.ts";
import { hideSecrets, presentSecrets, readSecrets, withSecrets } from "../secrets/env.ts";

/**
 * The rules replay re-applies to live client messages before matching: those
 * the recording applied (its header says which), plus any given on the command
 * line. A cassette that was never scrubbed gets no rewriting, or a live secret
 * would stop matching its verbatim recording.
 *
 * Only requests that do not match as sent are rewritten, and in most sessions
 * there are none: the built-in rules every recording names load on first
 * use, which took 1.3-2.3 ms off replay's spawn to first answer. Rules a
 * user wrote and packs are built at once, so a mistake in them stops replay
 * before it serves, with exit 2.
 */
export async function requestRewriter(
  values: OptionValues,
  header: CassetteHeader | undefined,
  cassette: string,
): Promise<ReplayOptions["rewriteRequest"]> {
  const plan = await redactionPlan(values, header, cassette);
  if (!plan) return undefined;
  // Live requests carry the secrets' current values: hidden as the recording hid them.
  const secrets = presentSecrets(header?.redaction?.secretEnv ?? []);
  const rewrite = (redactor: Redactor, message: unknown) =>
    redactor.messageWithValues(hideSecrets(message as never, secrets), "c2s");
  if (!plan.builtInOnly) {
    const redactor = await plan.build();
    return (message) => rewrite(redactor, message);
  }
  let loading: Promise<Redactor> | undefined;
  return async (message) => rewrite(await (loading ??= plan.build()), message);
}

/**
 * The redactor of a recording, for what replay adds to it (`--new-episodes`):
 * its own rules, plus any given on the command line.
 */
export async function recordingRedactor(
  values: OptionValues,
  header: CassetteHeader | undefined,
  cassette = "the cassette",
): Promise<Redactor | undefined> {
  const redactor = await (await redactionPlan(values, header, cassette, true))?.build();
  const names = header?.redaction?.secretEnv ?? [];
  if (!redactor || names.length === 0) return redactor;
  // What the live server adds is scrubbed of the same secrets, which must be set.
  return withSecrets(redactor, readSecrets(names, `${cassette} was recorded with --secret-env`));
}

/**
 * How to build the recording's redactor, or undefined for a cassette never
 * scrubbed. Keyed placeholders need their key (./redact_key.ts): a missing
 * or wrong one stops the replay here, with exit 2, when a recorded request
 * holds one, or when the replay `writes` to the cassette (`--new-episodes`
 * keys what it appends the same way); otherwise the replay goes on without it.
 */
async function redactionPlan(
  values: OptionValues,
  header: CassetteHeader | undefined,
  cassette: string,
  writes = false,
) {
  const extra = stringList(values, "redact");
  // Another tool's rules cannot be re-run here: its cassettes are matched as
  // they are (a live secret will not match that tool's placeholder).
  let recorded = header?.meta?.importedFrom === undefined ? header?.redaction : undefined;
  if (!recorded && extra.length === 0) return undefined;
  const hashKey = runtime.env("MCP_CASSETTE_REDACT_KEY") || undefined;
  let digestKey: string | undefined;
  if (recorded?.digest) {
    const { redactKey, replayDigestKey } = await import(
      "../" + "commands/redact_key.ts"
    ) as typeof import("./redact_key.ts");
    // Writing, the key is checked by createReplayRedactor: a missing or wrong one is exit 2.
    digestKey = writes ? await redactKey(false) : await replayDigestKey(cassette, recorded.digest);
    if (digestKey === undefined && !writes) recorded = { ...recorded, digest: undefined };
  }
  const base = recorded ?? { rules: [] };
  const packs = stringList(values, "pack");
  return {
    builtInOnly: extra.length === 0 && packs.length === 0 && onlyBuiltInRules(base),
    build: async (): Promise<Redactor> => {
      const { createReplayRedactor } = await import(
        "../" + "redact/mod.ts"
      ) as typeof import("../redact/mod.ts");
      return await createReplayRedactor({ ...base, rules: [...base.rules, ...extra] }, {
        packs,
        hashKey,
        digestKey,
        cassette,
      });
    },
  };
}

/** True when a recording names only rules that ship with mcp-cassette (nothing that can fail to build). */
function onlyBuiltInRules(info: RedactionInfo): boolean {
  return !info.packs?.length &&
    info.rules.every((id) => id === "keys:default" || id.startsWith("detector:"));
}
