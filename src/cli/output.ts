/**
 * Writing the CLI's own output. Awaited writes, so nothing is lost when the
 * process exits right after. Colour only on a terminal, with the usual
 * overrides: `NO_COLOR` (any value but empty) turns it off and wins,
 * `FORCE_COLOR` (any value but empty, `0` or `false`) turns it on.
 *
 * @module
 */
import { runtime } from "../runtime/mod.ts";
import { isTerminal } from "../runtime/terminal.ts";

const encoder = new TextEncoder();

/** Writes text to stdout and waits until it is handed to the OS. */
export async function printOut(text: string): Promise<void> {
  const writer = runtime.stdout.getWriter();
  try {
    await writer.write(encoder.encode(text));
  } finally {
    writer.releaseLock();
  }
}

/** Writes a diagnostic line to stderr (synchronously, so it survives an exit). */
export function printErr(text: string): void {
  runtime.writeStderr(text.endsWith("\n") ? text : text + "\n");
}

/** The styles the CLI uses. */
export const STYLES = {
  red: "\x1b[31m",
  green: "\x1b[32m",
  yellow: "\x1b[33m",
  bold: "\x1b[1m",
  dim: "\x1b[2m",
} as const;

/** One of {@linkcode STYLES}. */
export type Style = keyof typeof STYLES;

/**
 * Whether output to `stream` should be coloured: `NO_COLOR` wins, then
 * `asked` (a `--color` flag), then `FORCE_COLOR`, then whether the stream is a terminal (and `TERM` is not `dumb`).
 */
export function colorEnabled(stream: "stdout" | "stderr", asked = false): boolean {
  const noColor = runtime.env("NO_COLOR");
  if (noColor !== undefined && noColor !== "") return false;
  if (asked) return true;
  const force = runtime.env("FORCE_COLOR");
  if (force !== undefined && force !== "") return force !== "0" && force.toLowerCase() !== "false";
  return isTerminal(stream) && runtime.env("TERM") !== "dumb";
}

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
