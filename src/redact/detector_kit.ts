/**
 * What a built-in detector is, and the two ways to make one: a pattern
 * behind a hint, or a search of its own behind a hint.
 *
 * @module
 */

/** Where a secret sits in a string: `text.slice(start, end)`. */
export interface Span {
  start: number;
  end: number;
}

/** A built-in detector. */
export interface Detector {
  /** Short name, used in placeholders (`[REDACTED:email]`) and as `detector:<name>`. */
  name: string;
  /** Finds every secret in `text`. */
  find(text: string): Span[];
  /** Matches somewhere in every text `find` finds anything in: a cheap test to run first. */
  hint: RegExp;
}

/**
 * Runs a global regex over `text`; `accept` may veto a match or narrow it.
 * When the pattern has a named group `secret`, only that group is the secret.
 */
export function regexSpans(
  pattern: RegExp,
  text: string,
  accept?: (match: string) => string | undefined,
): Span[] {
  const spans: Span[] = [];
  pattern.lastIndex = 0;
  for (const match of text.matchAll(pattern)) {
    if (match[0] === "") continue;
    let start = match.index!;
    let secret = match[0];
    const group = match.groups?.secret;
    if (group !== undefined) {
      start += match[0].indexOf(group);
      secret = group;
    }
    const accepted = accept ? accept(secret) : secret;
    if (accepted) spans.push({ start, end: start + accepted.length });
  }
  return spans;
}

/**
 * A detector from a pattern. `hint` is a cheap test that every match
 * needs to pass (a fixed substring, a character class): most strings in MCP
 * traffic fail it at once, and skipping sixteen regex scans per string is
 * most of what keeps redaction off the recorder's hot path. Hints have no
 * flags, so the redactor can join them into one test (./redactor.ts).
 */
export function detector(
  name: string,
  pattern: RegExp,
  hint: RegExp,
  accept?: (match: string) => string | undefined,
): Detector {
  return { name, hint, find: (text) => (hint.test(text) ? regexSpans(pattern, text, accept) : []) };
}

/** A detector with its own search behind a hint. */
export function searched(name: string, hint: RegExp, search: (text: string) => Span[]): Detector {
  return { name, hint, find: (text) => (hint.test(text) ? search(text) : []) };
}
