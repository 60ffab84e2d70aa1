/**
 * Waiting for the user to stop a long-running server (the HTTP recorder,
 * the HTTP replay).
 *
 * @module
 */
import { runtime } from "./mod.ts";

/** Resolves at the first SIGINT or SIGTERM, and stops listening for both. */
export function untilInterrupted(): Promise<void> {
  return new Promise<void>((resolve) => {
    const removers = (["SIGINT", "SIGTERM"] as const).map((signal) =>
      runtime.onSignal(signal, () => {
        removers.forEach((remove) => remove());
        resolve();
      })
    );
  });
}
