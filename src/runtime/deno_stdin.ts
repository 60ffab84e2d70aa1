/**
 * This process's stdin on Deno: read asynchronously, or, while its reader
 * has nothing else to do, with blocking reads on the main thread.
 *
 * Deno reads stdin on a thread of its blocking pool: every read duplicates
 * the descriptor, wakes a pool thread, and wakes the main thread again when
 * bytes come (strace: `fcntl(0, F_DUPFD_CLOEXEC)`, two futex wakes and a
 * `close` per read). For a replay answering one request at a time that hop
 * was most of the gap to a Python peer that blocks in read(2): a minimal
 * responder answered in 153 µs per call reading asynchronously and in 109 µs
 * blocking (same run, SDK client, 1,500 calls).
 *
 * A blocked main thread runs no signal listener; but a signal that has one
 * interrupts the read, which Deno then reports as the end of the input, and
 * the listener runs as soon as the reader returns to the event loop. That
 * suits the listeners a stdio replay sets, SIGINT and SIGTERM, which end it
 * (its report written: tests/cli/report_on_signal_blocked_test.ts). A
 * process listening for any other signal, which it would expect to survive,
 * is never offered blocking reads. They are offered only where stdin is a
 * pipe on Linux (a terminal or a file is read as before).
 *
 * @module
 */
import { Deno } from "./deno_api.ts";
import { readableWithReadNow } from "./immediate.ts";
import type { BlockingReadable } from "./immediate.ts";

/** Signals whose listeners end the process: one may interrupt a blocking read. */
const ENDING = new Set(["SIGINT", "SIGTERM"]);

/** How many listeners the main thread has per signal (deno.ts's `onSignal` keeps it). */
const listeners = new Map<string, number>();

/** Counts a signal listener added (+1) or removed (-1). */
export function noteSignalListener(signal: string, change: 1 | -1): void {
  listeners.set(signal, (listeners.get(signal) ?? 0) + change);
}

/** True when no listener is set for a signal the process would expect to survive. */
function onlyEndingSignals(): boolean {
  for (const [signal, count] of listeners) if (count > 0 && !ENDING.has(signal)) return false;
  return true;
}

/** True when our stdin is a pipe on Linux. */
function stdinIsPipe(): boolean {
  try {
    return Deno.build.os === "linux" && /^pipe:/.test(Deno.readLinkSync("/proc/self/fd/0"));
  } catch {
    return false;
  }
}

/**
 * Our stdin, read into one buffer and handed on as a copy of what arrived.
 * `Deno.stdin.readable` is a byte stream whose machinery runs on every read;
 * replay and the recorder read once per message.
 */
export function stdinStream(bufferBytes = 1 << 16): BlockingReadable {
  const buffer = new Uint8Array(bufferBytes);
  const copy = (read: number | null) => read === null ? undefined : buffer.slice(0, read);
  const stream = readableWithReadNow(async () => copy(await Deno.stdin.read(buffer)), () => {
    try {
      Deno.stdin.close();
    } catch {
      // Already closed.
    }
  });
  const pipe = stdinIsPipe();
  const readBlocking = () => pipe && onlyEndingSignals() ? copy(Deno.stdin.readSync(buffer)) : null;
  return Object.assign(stream, { readBlocking });
}
