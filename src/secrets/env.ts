/**
 * Secrets from the environment (`record --secret-env NAME`): the value of
 * each named variable is replaced by `[SECRET:NAME]` wherever it appears in
 * what is recorded (requests, answers, header values, queries, raw lines)
 * before anything reaches disk, and the cassette's header lists the names
 * (`redaction.secretEnv`). A replay hides the current values the same way
 * in live requests before matching, and whatever sends recorded requests to
 * a live server puts the real values back from the environment.
 *
 * @module
 */
import type { Direction, RedactionInfo } from "../cassette/format.ts";
import { UsageError } from "../errors/errors.ts";
import type { Json } from "../jsonrpc/messages.ts";
import type { Redactor } from "../redact/redactor_types.ts";
import { runtime } from "../runtime/mod.ts";

/** One named secret and its value now. */
export interface Secret {
  name: string;
  value: string;
}

/** The placeholder a secret's value becomes: `[SECRET:NAME]`. */
export function placeholder(name: string): string {
  return `[SECRET:${name}]`;
}

/**
 * Reads each named variable; a name not set (or empty) is a UsageError
 * naming it and `source` (the flag or option it came from), exit 2.
 */
export function readSecrets(names: readonly string[], source: string): Secret[] {
  return [...new Set(names)].map((name) => {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) {
      throw new UsageError(`${source} ${JSON.stringify(name)} is not an environment variable name`);
    }
    const value = runtime.env(name);
    if (value === undefined || value === "") {
      throw new UsageError(`${source} ${name}: the environment variable ${name} is not set`);
    }
    return { name, value };
  });
}

/** The secrets of `names` that are set now; the others are left out. */
export function presentSecrets(names: readonly string[]): Secret[] {
  return names.flatMap((name) => {
    const value = runtime.env(name);
    return value ? [{ name, value }] : [];
  });
}

/** Replaces every value (and its URL-encoded form) by its placeholder, longest first. */
export function hideInText(text: string, secrets: readonly Secret[]): string {
  let out = text;
  for (const { name, value } of [...secrets].sort((a, b) => b.value.length - a.value.length)) {
    out = out.replaceAll(value, placeholder(name));
    const encoded = encodeURIComponent(value);
    if (encoded !== value) out = out.replaceAll(encoded, placeholder(name));
  }
  return out;
}

/** Replaces every placeholder by its secret's value. */
export function revealInText(text: string, secrets: readonly Secret[]): string {
  let out = text;
  for (const { name, value } of secrets) out = out.replaceAll(placeholder(name), value);
  return out;
}

/** `change` applied to every string (not keys) in `value`; the same object when none changed. */
function mapStrings(value: Json, change: (text: string) => string): Json {
  if (typeof value === "string") return change(value);
  if (Array.isArray(value)) {
    const items = value.map((item) => mapStrings(item, change));
    return items.every((item, i) => item === value[i]) ? value : items;
  }
  if (value === null || typeof value !== "object") return value;
  let changed = false;
  const out: Record<string, Json> = {};
  for (const [key, item] of Object.entries(value)) {
    const next = mapStrings(item as Json, change);
    changed ||= next !== item;
    Object.defineProperty(out, key, { value: next, enumerable: true, writable: true });
  }
  return changed ? out : value;
}

/** `message` with every secret value replaced by its placeholder. */
export function hideSecrets(message: Json, secrets: readonly Secret[]): Json {
  return secrets.length === 0 ? message : mapStrings(message, (text) => hideInText(text, secrets));
}

/** `message` with every placeholder replaced by its secret's value. */
export function revealSecrets(message: Json, secrets: readonly Secret[]): Json {
  return secrets.length === 0
    ? message
    : mapStrings(message, (text) => revealInText(text, secrets));
}

/**
 * A replay's `rewriteRequest` for a cassette recorded with `names`: live
 * requests carry the secrets' current values, hidden as the recording hid
 * them. Undefined when no name is listed or none is set now.
 */
export function secretHider(
  names: readonly string[] | undefined,
): ((message: unknown) => { message: Json }) | undefined {
  const secrets = presentSecrets(names ?? []);
  if (secrets.length === 0) return undefined;
  return (message) => ({ message: hideSecrets(message as Json, secrets) });
}

/**
 * A redactor that hides `secrets` before `inner` runs, and lists their
 * names in the header. It has no recipe: the stdio recorder then copies on
 * its main thread, since another thread could not read these values.
 */
export function withSecrets(inner: Redactor, secrets: readonly Secret[]): Redactor {
  const names = secrets.map((secret) => secret.name);
  const holds = (line: string) =>
    secrets.some(({ value }) => line.includes(value) || line.includes(JSON.stringify(value)));
  return {
    message: (msg: Json, dir: Direction) => inner.message(hideSecrets(msg, secrets), dir),
    messageWithValues: (msg: Json, dir: Direction) =>
      inner.messageWithValues(hideSecrets(msg, secrets), dir),
    keepsLine: (line: string, dir: Direction) => !holds(line) && inner.keepsLine(line, dir),
    text: (text: string, dir: Direction) => inner.text(hideInText(text, secrets), dir),
    headers: (h: Record<string, string>) =>
      inner.headers(
        Object.fromEntries(
          Object.entries(h).map(([key, value]) => [key, hideInText(value, secrets)]),
        ),
      ),
    url: (pathAndQuery: string) => inner.url(hideInText(pathAndQuery, secrets)),
    info: (): RedactionInfo => ({ ...inner.info(), secretEnv: names }),
    findings: (value: Json | string, dir: Direction) => inner.findings(value, dir),
  };
}
