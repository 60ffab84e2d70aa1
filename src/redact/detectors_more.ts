/**
 * Built-in detectors for credentials that reached cassettes past the first
 * set (./detectors.ts): Stripe and npm keys, Slack webhooks, HTTP Basic
 * credentials, a password inside a URL, `token <40 hex>`, shell assignments
 * of secret-named variables, and Azure storage keys. Each is held to a shape
 * (a fixed prefix and length, a decoding that must yield `user:password`, a
 * variable name that names a credential) so that protocol fields and
 * ordinary prose survive. Hints hold no assertions: the recorder joins them
 * into the one test a line must pass to skip redaction.
 *
 * @module
 */
import { detector } from "./detector_kit.ts";
import type { Detector, Span } from "./detector_kit.ts";
import { isCredentialKey } from "./keys.ts";

/** Base64 that decodes to `user:password` (printable, one colon or more): Basic credentials, not a word. */
function acceptBasic(secret: string): string | undefined {
  let decoded: string;
  try {
    decoded = atob(secret);
  } catch {
    return undefined;
  }
  return /^[\x20-\x7e]+:[\x20-\x7e]*$/.test(decoded) && decoded.indexOf(":") > 0
    ? secret
    : undefined;
}

/** `NAME=value` (after `export ` or `set ` or alone) where NAME names a credential. */
const ASSIGNMENT =
  /(?<![\w$])(?:export\s+|set\s+)?(?<key>[A-Za-z_][A-Za-z0-9_]{0,63})=(?<value>"[^"\n]{1,4096}"|'[^'\n]{1,4096}'|[^\s"'`;&|]{1,4096})/g;

/** A credential word in upper case just before `=`: the one test most strings fail. */
const ENV_HINT = /(?:PASS|SECRET|TOKEN|KEY|PWD|CREDENTIAL|AUTH)[A-Z0-9_]{0,40}=/;

function findAssignments(text: string): Span[] {
  const spans: Span[] = [];
  ASSIGNMENT.lastIndex = 0;
  for (const match of text.matchAll(ASSIGNMENT)) {
    const { key, value } = match.groups!;
    // Shell style only (upper case): `password=` in prose or a query is another rule's business.
    if (key !== key.toUpperCase() || !isCredentialKey(key)) continue;
    const quoted = value.startsWith('"') || value.startsWith("'");
    const start = match.index! + match[0].length - value.length + (quoted ? 1 : 0);
    const end = match.index! + match[0].length - (quoted ? 1 : 0);
    if (end > start) spans.push({ start, end });
  }
  return spans;
}

/** The detectors of this file, in the order they run (after the private-key, JWT and bearer ones). */
export const MORE_DETECTORS: readonly Detector[] = [
  detector(
    "stripe-key",
    /\b(?:sk|rk|pk)_(?:live|test)_[A-Za-z0-9]{20,255}(?![A-Za-z0-9])/g,
    /k_(?:live|test)_/,
  ),
  detector("npm-token", /\bnpm_[A-Za-z0-9]{36}(?![A-Za-z0-9])/g, /npm_[A-Za-z0-9]{36}/),
  detector(
    "slack-webhook",
    /https:\/\/hooks\.slack\.com\/(?:services|workflows|triggers)\/[A-Za-z0-9_/-]{16,255}/g,
    /hooks\.slack\.com\//,
  ),
  detector(
    "basic-auth",
    /\b[Bb]asic\s+(?<secret>[A-Za-z0-9+/]{6,1024}={0,2})(?![A-Za-z0-9+/=])/g,
    /asic\s+[A-Za-z0-9+/]{6}/,
    acceptBasic,
  ),
  detector(
    "url-password",
    /[A-Za-z][A-Za-z0-9+.-]{0,31}:\/\/[A-Za-z0-9._~%+-]{1,256}:(?<secret>[A-Za-z0-9._~%!&'()*+,;=:-]{1,256})@/g,
    // No negated class and no `$`: an anchor-like character in a hint would turn off the recorder's one-test skip of every line.
    /:\/\/[A-Za-z0-9._~%+-]{1,256}:[A-Za-z0-9._~%!&'()*+,;=:-]{1,256}@/,
  ),
  detector(
    "hex-token",
    /\b[Tt]oken[\s:=]+(?<secret>[0-9a-f]{40})(?![0-9A-Za-z])/g,
    /oken[\s:=]+[0-9a-f]{40}/,
  ),
  {
    name: "env-secret",
    hint: ENV_HINT,
    find: (text) => (ENV_HINT.test(text) ? findAssignments(text) : []),
  },
  detector(
    "azure-key",
    /\b(?:AccountKey|SharedAccessKey)=(?<secret>[A-Za-z0-9+/]{20,255}={0,2})/g,
    /(?:AccountKey|SharedAccessKey)=/,
  ),
];
