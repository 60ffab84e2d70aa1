/**
 * Whether stdout or stderr is a terminal, for choosing to colour output.
 * A file of its own, read through globals rather than `node:tty`: loading a
 * `node:` module makes Deno start its Node layer (about 19 ms of a `replay`
 * start), and replay asks this whenever it prints a miss.
 *
 * @module
 */

interface DenoStdio {
  isTerminal(): boolean;
}

interface HostGlobals {
  Deno?: { stdout: DenoStdio; stderr: DenoStdio };
  process?: { stdout?: { isTTY?: boolean }; stderr?: { isTTY?: boolean } };
}

/** True when `stream` of this process is a terminal (false when that cannot be told). */
export function isTerminal(stream: "stdout" | "stderr"): boolean {
  const host = globalThis as HostGlobals;
  try {
    if (host.Deno) return host.Deno[stream].isTerminal();
    return host.process?.[stream]?.isTTY === true;
  } catch {
    return false;
  }
}
