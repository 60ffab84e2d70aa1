/**
 * Writing the CLI's own output. Awaited writes, so nothing is lost when the
 * process exits right after. Colour only on a terminal, with the usual
 * overrides: `NO_COLOR` (any value but empty) turns it off and wins,
 * `FORCE_COLOR` (any value but empty, `0` or `false`) turns it on.
 * Everything written passes through `terminalText`: a recorded value
 * cannot move the cursor, retitle the window or reorder what is read.
 *
 * @module
 */
import { runtime } from "../runtime/mod.ts";
import { isTerminal } from "../runtime/terminal.ts";
import { terminalText } from "../text/visible.ts";

export { paint, paintLines, STYLES } from "../text/paint.ts";
export type { Style } from "../text/paint.ts";

const encoder = new TextEncoder();

/** Writes text to stdout and waits until it is handed to the OS. */
export async function printOut(text: string): Promise<void> {
  const writer = runtime.stdout.getWriter();
  try {
    await writer.write(encoder.encode(terminalText(text)));
  } finally {
    writer.releaseLock();
  }
}

/** Writes a diagnostic line to stderr (synchronously, so it survives an exit). */
export function printErr(text: string): void {
  const safe = terminalText(text);
  runtime.writeStderr(safe.endsWith("\n") ? safe : safe + "\n");
}

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
