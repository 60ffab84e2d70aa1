/**
 * Character-level checks on server text: invisible and bidirectional
 * characters, names mixing scripts or using look-alike letters, and strings
 * shaped like secrets.
 *
 * @module
 */
import { CONTROL_CHARACTER, visible } from "../text/visible.ts";

/** Zero-width, bidi-control, tag and other invisible code points, by name. */
const INVISIBLES: [RegExp, string][] = [
  [/[\u202A-\u202E\u2066-\u2069]/u, "bidirectional control"],
  [/[\u200E\u200F\u061C]/u, "directional mark"],
  [
    /[\u200B-\u200D\u2060-\u2064\uFEFF\u180E\u00AD\u034F\u115F\u1160\u3164\uFFA0]/u,
    "invisible character",
  ],
  [/[\u{E0000}-\u{E007F}]/u, "Unicode tag character"],
  [/[\uFE00-\uFE0F\u{E0100}-\u{E01EF}]/u, "variation selector"],
  [CONTROL_CHARACTER, "control character"],
];

/** The first invisible or bidi character in `text`, described. */
export function findInvisible(
  text: string,
): { index: number; what: string; codePoint: string } | undefined {
  let best: { index: number; what: string; codePoint: string } | undefined;
  for (const [pattern, what] of INVISIBLES) {
    const match = pattern.exec(text);
    if (match && (best === undefined || match.index < best.index)) {
      const codePoint = `U+${match[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}`;
      best = { index: match.index, what, codePoint };
    }
  }
  return best;
}

const SCRIPTS: [string, RegExp][] = [
  ["Latin", /\p{Script=Latin}/u],
  ["Cyrillic", /\p{Script=Cyrillic}/u],
  ["Greek", /\p{Script=Greek}/u],
  ["Armenian", /\p{Script=Armenian}/u],
  ["Cherokee", /\p{Script=Cherokee}/u],
  ["Han", /\p{Script=Han}/u],
  ["Arabic", /\p{Script=Arabic}/u],
  ["Hebrew", /\p{Script=Hebrew}/u],
];

/** The scripts the letters of `text` belong to. */
export function scriptsOf(text: string): string[] {
  const found = new Set<string>();
  for (const char of text) {
    if (!/\p{L}/u.test(char)) continue;
    const script = SCRIPTS.find(([, pattern]) => pattern.test(char));
    found.add(script ? script[0] : "other");
  }
  return [...found].sort();
}

/** Letters from other scripts that look like Latin ones, mapped to the Latin letter. */
const CONFUSABLES: Record<string, string> = {
  "а": "a",
  "е": "e",
  "о": "o",
  "р": "p",
  "с": "c",
  "у": "y",
  "х": "x",
  "і": "i",
  "ј": "j",
  "ѕ": "s",
  "һ": "h",
  "ԁ": "d",
  "ԛ": "q",
  "ԝ": "w",
  "ɡ": "g",
  "ӏ": "l",
  "А": "A",
  "В": "B",
  "Е": "E",
  "К": "K",
  "М": "M",
  "Н": "H",
  "О": "O",
  "Р": "P",
  "С": "C",
  "Т": "T",
  "Х": "X",
  "α": "a",
  "ο": "o",
  "ν": "v",
  "ρ": "p",
  "τ": "t",
  "ι": "i",
  "Α": "A",
  "Β": "B",
  "Ε": "E",
  "Ζ": "Z",
  "Η": "H",
  "Ι": "I",
  "Κ": "K",
  "Μ": "M",
  "Ν": "N",
  "Ο": "O",
  "Ρ": "P",
  "Τ": "T",
  "Υ": "Y",
  "Χ": "X",
  "ı": "i",
  "ℓ": "l",
  "０": "0",
  "１": "1",
};

/** A name folded to what it looks like: NFKC, look-alikes to Latin, lower case. */
export function skeleton(name: string): string {
  return [...name.normalize("NFKC")].map((char) => CONFUSABLES[char] ?? char).join("")
    .toLowerCase();
}

/** Why a name is suspicious, or undefined when it is plain. */
export function nameProblem(name: string): string | undefined {
  if (/^[\x20-\x7E]*$/.test(name)) return undefined;
  const scripts = scriptsOf(name);
  const lookAlikes = [...name].filter((char) => char in CONFUSABLES);
  if (lookAlikes.length > 0) {
    return `uses letters that look like Latin ones (${
      lookAlikes.map((c) =>
        `"${c}" U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}`
      ).join(", ")
    }): reads as "${skeleton(name)}"`;
  }
  if (scripts.length > 1) return `mixes scripts (${scripts.join(", ")})`;
  if (name.normalize("NFKC") !== name) {
    return `changes under NFKC normalisation (to "${name.normalize("NFKC")}")`;
  }
  return `uses non-ASCII characters (${scripts.join(", ") || "symbols"})`;
}

/**
 * Well-known credential shapes. Every repetition is bounded: an unbounded
 * one run over megabytes of token characters overflowed the regexp stack
 * (`lint` exited 70 on an 8 MB text).
 */
const SECRET_SHAPES: [RegExp, string][] = [
  [/\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/, "AWS access key id"],
  [/\bgh[pousr]_[A-Za-z0-9]{36,255}\b/, "GitHub token"],
  [/\bgithub_pat_[A-Za-z0-9_]{40,255}\b/, "GitHub token"],
  [/\bsk-(?:proj-|ant-)?[A-Za-z0-9_-]{20,255}/, "API secret key"],
  [/\bxox[abprs]-[A-Za-z0-9-]{10,255}/, "Slack token"],
  [/\bglpat-[A-Za-z0-9_-]{20,255}/, "GitLab token"],
  [/\bAIza[0-9A-Za-z_-]{35}\b/, "Google API key"],
  [/-----BEGIN [A-Z ]{0,64}PRIVATE KEY-----/, "private key"],
  [/\beyJ[A-Za-z0-9_-]{8,2048}\.eyJ[A-Za-z0-9_-]{8,8192}\.[A-Za-z0-9_-]{8,2048}/, "JSON Web Token"],
];

/** Characters of a token the entropy check looks at. */
function isTokenChar(code: number): boolean {
  return (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122) ||
    code === 43 || code === 47 || code === 95 || code === 61 || code === 45;
}

/** The runs of token characters 24 to 200 long (longer ones are payloads, not credentials). */
function* tokenRuns(text: string): Generator<string> {
  let start = -1;
  for (let i = 0; i <= text.length; i++) {
    const inside = i < text.length && isTokenChar(text.charCodeAt(i));
    if (inside && start === -1) start = i;
    else if (!inside && start !== -1) {
      if (i - start >= 24 && i - start <= 200) yield text.slice(start, i);
      start = -1;
    }
  }
}

/** Shannon entropy in bits per character. */
export function entropy(text: string): number {
  const counts = new Map<string, number>();
  for (const char of text) counts.set(char, (counts.get(char) ?? 0) + 1);
  let bits = 0;
  for (const count of counts.values()) {
    const p = count / text.length;
    bits -= p * Math.log2(p);
  }
  return bits;
}

/** The first secret-shaped token in `text`. */
export function findSecret(text: string): { token: string; what: string } | undefined {
  for (const [pattern, what] of SECRET_SHAPES) {
    const match = pattern.exec(text);
    if (match) return { token: match[0], what };
  }
  for (const token of tokenRuns(text)) {
    const classes = [/[a-z]/, /[A-Z]/, /[0-9]/].filter((pattern) => pattern.test(token)).length;
    if (classes < 3 || token.includes("//")) continue;
    if (entropy(token) >= 4.2) {
      return { token, what: `high-entropy string (${entropy(token).toFixed(1)} bits/char)` };
    }
  }
  return undefined;
}

/** Shortens text for a message, showing control characters as escapes. */
export function excerpt(text: string, max = 80): string {
  const shown = visible(text.replace(/[\t\n ]+/g, " "));
  return shown.length > max ? shown.slice(0, max - 1) + "…" : shown;
}
