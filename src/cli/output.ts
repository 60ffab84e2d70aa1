/**
 * Writing the CLI's own output. Awaited writes, so nothing is lost when the
 * process exits right after.
 *
 * @module
 */
import { runtime } from "../runtime/mod.ts";

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
