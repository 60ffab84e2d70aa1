/**
 * Redaction at capture time: secrets and personal data are scrubbed from
 * every frame before it reaches disk. docs/redaction.md describes the
 * defaults, the rule syntax, packs, and the limits.
 *
 * @example
 * ```ts
 * import { createRedactor } from "./src/redact/mod.ts";
 *
 * const redactor = await createRedactor({ rules: ["/params/arguments/ssn"], packs: ["acme.toml"] });
 * const safe = redactor.message(
 *   { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "login", arguments: { password: "hunter2" } } },
 *   "c2s",
 * );
 * // safe.params.arguments.password === "[REDACTED:credential]"
 * header.redaction = redactor.info();
 * ```
 *
 * @module
 */
import type { Direction, RedactionInfo } from "../cassette/format.ts";
import { CassetteError, UsageError } from "../errors/errors.ts";
import { KEY_HINT, PlaceholderDigest } from "./digest.ts";
import { DETECTOR_NAMES } from "./detectors.ts";
import { loadPack } from "./pack.ts";
import type { RulePack } from "./pack.ts";
import { RuleEngine } from "./redactor.ts";
import type { Redactor } from "./redactor.ts";
import { DEFAULT_KEY_RULE, detectorRules, parseRuleSpec } from "./rules.ts";
import type { Rule } from "./rules.ts";
import { DEFAULT_HASH_KEY } from "./strategy.ts";

export type { Finding, Redactor } from "./redactor.ts";
export { RuleEngine } from "./redactor.ts";
export { PlaceholderDigest } from "./digest.ts";
export type { DigestInfo } from "./digest.ts";
export type { Rule, RuleDirection } from "./rules.ts";
export type { RulePack } from "./pack.ts";
export type { Strategy } from "./strategy.ts";
export { DEFAULT_HASH_KEY, isPlaceholder } from "./strategy.ts";
export { isCredentialKey, isProtocolKey } from "./keys.ts";
export { DETECTOR_NAMES } from "./detectors.ts";
export {
  entryFindings,
  headerLineFindings,
  mergeRedactionInfo,
  redactCommandLine,
  redactEntry,
  redactHeader,
} from "./entry.ts";
export type { Direction };

/** The environment variable callers read for the hash key (this module never reads the environment). */
export const REDACT_KEY_ENV = "MCP_CASSETTE_REDACT_KEY";

export type { RedactOptions } from "./options.ts";
import type { RedactOptions } from "./options.ts";

/**
 * Builds a redactor. Rules run in this order: pack rules (file order),
 * `--redact` rules, the default key rule, then the detectors. Bad rules and
 * packs throw a {@linkcode CassetteError} (exit 2) naming the file and rule.
 *
 * @example
 * ```ts
 * const redactor = await createRedactor({ detectors: true, hashKey: runtime.env("MCP_CASSETTE_REDACT_KEY") });
 * const { headers, credentials } = redactor.headers({ authorization: "Bearer abc", accept: "application/json" });
 * // headers = { accept: "application/json" }, credentials = ["authorization"]
 * ```
 */
export async function createRedactor(options: RedactOptions = {}): Promise<Redactor> {
  const packs: RulePack[] = [];
  for (const path of options.packs ?? []) packs.push(await loadPack(path));
  const digest = options.digestKey === undefined
    ? undefined
    : options.digestSalt === undefined
    ? PlaceholderDigest.fresh(options.digestKey)
    : new PlaceholderDigest(options.digestKey, options.digestSalt);
  const engine = buildEngine(
    packs,
    options.rules ?? [],
    options.detectors ?? true,
    options.hashKey,
    digest,
  );
  const recipe = structuredClone(options);
  if (digest) recipe.digestSalt = digest.salt;
  return Object.assign(engine, { recipe });
}

function buildEngine(
  packs: RulePack[],
  specs: string[],
  detectors: boolean | readonly string[],
  hashKey: string | undefined,
  digest?: PlaceholderDigest,
): RuleEngine {
  for (const name of Array.isArray(detectors) ? detectors : []) {
    if (!DETECTOR_NAMES.includes(name)) {
      throw new CassetteError(`Unknown detector "${name}" (known: ${DETECTOR_NAMES.join(", ")})`);
    }
  }
  const rules: Rule[] = [
    ...packs.flatMap((pack) => pack.rules),
    ...specs.map(parseRuleSpec),
    DEFAULT_KEY_RULE,
    ...(detectors === false ? [] : detectorRules(detectors === true ? undefined : detectors)),
  ];
  return new RuleEngine(rules, hashKey ?? DEFAULT_HASH_KEY, packs, digest);
}

/** Options for {@linkcode createReplayRedactor}. */
export interface ReplayRedactOptions {
  /** Paths of the packs the cassette was scrubbed with; each must match the header's SHA-256. */
  packs?: string[];
  /** The hash key the recording used (needed for `hash` rules to reproduce). */
  hashKey?: string;
  /** The secret key of the recording's keyed placeholders (needed when its header has `digest`). */
  digestKey?: string;
  /** The cassette, named in the error when the key is missing or another. */
  cassette?: string;
}

/**
 * The digest of a cassette's keyed placeholders under `key`; a
 * {@linkcode UsageError} (exit 2) naming the cassette when the key is missing
 * or is not the one its placeholders were made with.
 */
export function recordedDigest(
  info: RedactionInfo,
  key: string | undefined,
  cassette = "the cassette",
): PlaceholderDigest | undefined {
  if (!info.digest) return undefined;
  if (key === undefined) {
    throw new UsageError(
      `${cassette}: its redacted values are keyed and no key is set; ${KEY_HINT}`,
    );
  }
  const digest = new PlaceholderDigest(key, info.digest.salt);
  if (digest.keyId !== info.digest.key) {
    throw new UsageError(
      `${cassette}: its redacted values were keyed with another key (id ${info.digest.key}, this key's is ${digest.keyId}); ${KEY_HINT}`,
    );
  }
  return digest;
}

/**
 * Rebuilds, from a cassette header's `redaction`, the redactor that scrubbed
 * it, so replay can run live requests through `redactor.message(request,
 * "c2s")` before matching: a request carrying the real secret then matches
 * the recording that holds its placeholder. Every strategy is deterministic,
 * `mask` included, but `hash` reproduces only with the same key.
 *
 * @example
 * ```ts
 * const redactor = await createReplayRedactor(cassette.header.redaction, { packs: ["acme.toml"] });
 * const comparable = redactor.message(liveRequest, "c2s");
 * ```
 */
export async function createReplayRedactor(
  info: RedactionInfo | undefined,
  options: ReplayRedactOptions = {},
): Promise<Redactor> {
  if (!info) return buildEngine([], [], false, options.hashKey);
  const digest = recordedDigest(info, options.digestKey, options.cassette);
  const offered: RulePack[] = [];
  for (const path of options.packs ?? []) offered.push(await loadPack(path));
  const packs = (info.packs ?? []).map((wanted) => {
    const pack = offered.find((candidate) => candidate.sha256 === wanted.sha256);
    if (!pack) {
      throw new CassetteError(
        `The cassette was scrubbed with rule pack "${wanted.name}" (sha256 ${
          wanted.sha256.slice(0, 12)
        }…); pass that exact file with --pack`,
      );
    }
    return pack;
  });
  const specs: string[] = [];
  const detectors: string[] = [];
  for (const id of info.rules) {
    if (id === "keys:default" || id.startsWith("pack:")) continue;
    if (id.startsWith("detector:")) detectors.push(id.slice("detector:".length));
    else if (id.startsWith("pointer:")) specs.push(id.slice("pointer:".length));
    else if (id.startsWith("key:") || id.startsWith("regex:")) specs.push(id);
    else {throw new CassetteError(
        `The cassette names a redaction rule this version does not know: "${id}"`,
      );}
  }
  return buildEngine(
    packs,
    specs,
    detectors.filter((name) => DETECTOR_NAMES.includes(name)),
    options.hashKey,
    digest,
  );
}
