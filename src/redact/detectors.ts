/**
 * The built-in free-text detectors: patterns for personal data and
 * well-known secret formats, each with the checksum or shape test that keeps
 * protocol values (timestamps, versions, UUIDs, ids) from matching.
 *
 * @module
 */
import { detector, searched } from "./detector_kit.ts";
import type { Detector, Span } from "./detector_kit.ts";
import { MORE_DETECTORS } from "./detectors_more.ts";

export type { Detector, Span } from "./detector_kit.ts";
export { regexSpans } from "./detector_kit.ts";

/** Luhn checksum over a digit string. */
export function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let digit = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

/** Issuer prefixes of the major card networks; a Luhn-valid 13–19 digit run without one is an id, not a card. */
const CARD_PREFIX = /^(?:4|5[1-5]|2[2-7]|3[47]|3[0689]|6011|65|64[4-9]|62)/;

function isCard(digits: string): boolean {
  return digits.length >= 13 && digits.length <= 19 && CARD_PREFIX.test(digits) &&
    luhnValid(digits);
}

/**
 * Cards: a run of digit groups joined by single spaces or dashes. Inside a
 * run ("qty 2 4111 1111 1111 1111"), the card may be any whole-group
 * window, so each window is tried, earliest and longest first.
 */
function findCards(text: string): Span[] {
  const spans: Span[] = [];
  for (const run of text.matchAll(/(?<![\d])\d+(?:[ -]\d+)*(?!\d)/g)) {
    const groups = [...run[0].matchAll(/\d+/g)].map((group) => ({
      start: run.index! + group.index!,
      end: run.index! + group.index! + group[0].length,
      digits: group[0],
    }));
    let next = 0;
    while (next < groups.length) {
      const found = cardWindow(groups, next);
      if (found === undefined) {
        next++;
        continue;
      }
      spans.push({ start: groups[next].start, end: groups[found].end });
      next = found + 1;
    }
  }
  return spans;
}

function cardWindow(groups: { digits: string }[], first: number): number | undefined {
  let digits = "";
  let best: number | undefined;
  for (let last = first; last < groups.length && digits.length <= 19; last++) {
    digits += groups[last].digits;
    if (isCard(digits)) best = last;
  }
  return best;
}

/** ISO 13616 mod-97 check of an IBAN (spaces already removed). */
export function ibanValid(iban: string): boolean {
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]{11,30}$/.test(iban)) return false;
  const rearranged = iban.slice(4) + iban.slice(0, 4);
  let remainder = 0;
  for (const char of rearranged) {
    const value = char >= "A" ? String(char.charCodeAt(0) - 55) : char;
    for (const digit of value) remainder = (remainder * 10 + Number(digit)) % 97;
  }
  return remainder === 1;
}

/**
 * IBANs: within a run of upper-case words joined by single spaces ("REF
 * AA00 GB82 WEST …"), any window of whole words may be the IBAN, so each
 * start word is tried with the longest window whose mod-97 check holds.
 */
function findIbans(text: string): Span[] {
  const spans: Span[] = [];
  for (const run of text.matchAll(/\b[A-Z0-9]+(?: [A-Z0-9]+)*\b/g)) {
    const words = [...run[0].matchAll(/[A-Z0-9]+/g)].map((word) => ({
      start: run.index! + word.index!,
      end: run.index! + word.index! + word[0].length,
      text: word[0],
    }));
    let first = 0;
    while (first < words.length) {
      let best: number | undefined;
      let compact = "";
      if (/^[A-Z]{2}\d{2}/.test(words[first].text)) {
        for (let last = first; last < words.length && compact.length <= 34; last++) {
          compact += words[last].text;
          if (ibanValid(compact)) best = last;
        }
      }
      if (best === undefined) {
        first++;
        continue;
      }
      spans.push({ start: words[first].start, end: words[best].end });
      first = best + 1;
    }
  }
  return spans;
}

function acceptIpv4(match: string): string | undefined {
  // Loopback and the unspecified address identify nobody.
  return match.startsWith("127.") || match === "0.0.0.0" ? undefined : match;
}

function acceptIpv6(match: string): string | undefined {
  const halves = match.split("::");
  if (halves.length > 2) return undefined;
  const groups = halves.flatMap((half) => (half === "" ? [] : half.split(":")));
  if (groups.some((group) => !/^[0-9A-Fa-f]{1,4}$/.test(group))) return undefined;
  if (halves.length === 1) return groups.length === 8 ? match : undefined;
  // `::` alone and `::1` are the unspecified and loopback addresses.
  if (groups.length === 0 || groups.length > 7 || match === "::1") return undefined;
  // `a::b` in prose (`Foo::bar`) is ruled out by the hex test; demand two groups or a long one.
  return groups.length >= 2 || groups[0].length >= 3 ? match : undefined;
}

const OCTET = "(?:25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)";

/**
 * The detectors, in the order they run. Secret formats with distinctive
 * prefixes go first so that, say, an Anthropic key is labelled
 * `anthropic-key` and not `openai-key`, and a JWT is not taken for a bearer
 * token's tail.
 */
const FIRST_DETECTORS: readonly Detector[] = [
  detector(
    "private-key",
    /-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----[\s\S]*?-----END (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----/g,
    /-----BEGIN/,
  ),
  detector("jwt", /(?<![\w-])eyJ[A-Za-z0-9_-]{5,}\.eyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]*/g, /eyJ/),
  detector(
    "bearer",
    /\b[Bb]earer\s+(?<secret>(?=[A-Za-z\-._~+/]*\d)[A-Za-z0-9\-._~+/]{12,}=*)/g,
    /earer/,
  ),
  detector(
    "aws-access-key-id",
    /\b(?:AKIA|ASIA|ABIA|ACCA|A3T[A-Z0-9])[A-Z0-9]{16}\b/g,
    /A(?:KI|SI|BI|CC|3T)/,
  ),
  detector(
    "github-token",
    /\b(?:gh[pousr]_[A-Za-z0-9]{36,255}|github_pat_[A-Za-z0-9_]{22,255})\b/g,
    /gh[pousr]_|github_pat_/,
  ),
  detector("anthropic-key", /\bsk-ant-[A-Za-z0-9_-]{20,}/g, /sk-ant-/),
  detector("openai-key", /\bsk-(?!ant-)(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}/g, /sk-/),
  detector("slack-token", /\bxox[baprs]-[A-Za-z0-9-]{10,}/g, /xox/),
  detector("google-api-key", /\bAIza[0-9A-Za-z_-]{35}(?![\w-])/g, /AIza/),
  detector(
    "email",
    /(?<![\w.%+-])[A-Za-z0-9][A-Za-z0-9._%+-]*@[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*\.[A-Za-z]{2,}\b/g,
    /@/,
  ),
  searched("iban", /[A-Z]{2}\d\d/, findIbans),
  // 13 or more digits in groups: some four of them stand together, or one separator apart.
  searched("payment-card", /\d[ -]?\d[ -]?\d[ -]?\d/, findCards),
  detector("ssn", /(?<![\d-])(?!000|666|9\d\d)\d{3}-(?!00)\d{2}-(?!0000)\d{4}(?![\d-])/g, /\d-\d/),
  detector("phone", /(?<![\w+])\+[1-9]\d{7,14}(?!\d)/g, /\+/),
  detector(
    "ipv4",
    new RegExp(`(?<![\\w.])(?:${OCTET}\\.){3}${OCTET}(?![\\w]|\\.\\d)`, "g"),
    /\d\.\d/,
    acceptIpv4,
  ),
  detector(
    "ipv6",
    /(?<![\w:.])(?:[0-9A-Fa-f]{0,4}:){2,7}[0-9A-Fa-f]{0,4}(?![\w:]|\.\d)/g,
    /:[0-9A-Fa-f]{0,4}:/,
    acceptIpv6,
  ),
];

/**
 * The detectors, in the order they run. Secret formats with distinctive
 * prefixes go first (those of ./detectors_more.ts right after the bearer
 * token), so that a password in a URL is labelled `url-password`, not taken
 * for the local part of an e-mail address.
 */
export const DETECTORS: readonly Detector[] = [
  ...FIRST_DETECTORS.slice(0, 3),
  ...MORE_DETECTORS,
  ...FIRST_DETECTORS.slice(3),
];

/** The names of all detectors. */
export const DETECTOR_NAMES: readonly string[] = DETECTORS.map((item) => item.name);

/**
 * True for a string that is plainly base64 data (an image, an audio clip, a
 * blob): long, only base64 characters, padded to a multiple of four. Such
 * values under `data` / `blob` keys skip the detectors, which would
 * otherwise find "cards" and "IBANs" in random bytes and corrupt the file.
 */
export function looksLikeBase64(value: string): boolean {
  const compact = value.replace(/[\r\n]/g, "");
  return compact.length >= 64 && compact.length % 4 === 0 && /^[A-Za-z0-9+/]+={0,2}$/.test(compact);
}
