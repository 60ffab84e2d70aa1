/**
 * ANSI colour for text: the styles, and painting a piece or whole lines.
 * Pure: whether to colour (a terminal, `NO_COLOR`, `--color`) is the
 * caller's decision, so reports can be painted without knowing the CLI.
 *
 * @module
 */

/** The styles reports use. */
export const STYLES = {
  red: "\x1b[31m",
  green: "\x1b[32m",
  yellow: "\x1b[33m",
  bold: "\x1b[1m",
  dim: "\x1b[2m",
} as const;

/** One of {@linkcode STYLES}. */
export type Style = keyof typeof STYLES;

/** `text` in `style` when `enabled`, else as it is. */
export function paint(text: string, style: Style, enabled: boolean): string {
  return enabled ? `${STYLES[style]}${text}\x1b[0m` : text;
}

/**
 * Colours whole lines of a report by the first rule whose pattern matches
 * (for reports whose formatter knows nothing of colour).
 */
export function paintLines(
  text: string,
  rules: readonly (readonly [RegExp, Style])[],
  enabled: boolean,
): string {
  if (!enabled) return text;
  return text.split("\n").map((line) => {
    const rule = rules.find(([pattern]) => pattern.test(line));
    return rule && line !== "" ? paint(line, rule[1], true) : line;
  }).join("\n");
}
