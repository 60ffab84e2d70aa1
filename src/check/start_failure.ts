/**
 * Why a server did not come up, in its own words. A crashing server's last
 * stderr line is often boilerplate (`Node.js v20.20.2`, a stack frame), while
 * the reason (`Error: Cannot find module '/srv/missing.js'`) sits above it.
 *
 * @module
 */
import { ServerUnreachableError } from "../errors/errors.ts";
import type { ClientTransport } from "../client/transport.ts";
import { sleep } from "../util/helpers.ts";

/** A line that states an error: `Error: …`, `ModuleNotFoundError: …`, `error: …`, `panic: …`. */
const ERROR_LINE =
  /^\s*(?:(?:[\w$.]*(?:Error|Exception)\b(?:\s*\[[^\]]*\])?)|error(?:\[\w+\])?|fatal(?: error)?|panic)\s*:\s*\S/i;
/** Lines that never explain anything: stack frames, runtime banners, source excerpts. */
const NOISE =
  /^\s*(?:$|at\s|\^+\s*$|Node\.js v\d|node:internal|throw\s|[{}]\s*$|code:|requireStack:|Traceback \(most recent call last\)|File ")/;

/**
 * The stderr line that best says why the server failed: the first that
 * states an error, else the last that is not boilerplate.
 *
 * @example
 * ```ts
 * failureReason(["node:internal/modules/cjs/loader:1210", "  throw err;", "Error: Cannot find module 'x'", "Node.js v20.20.2"]);
 * // "Error: Cannot find module 'x'"
 * ```
 */
export function failureReason(stderr: readonly string[]): string | undefined {
  const stated = stderr.find((line) => ERROR_LINE.test(line));
  const reason = stated ?? stderr.filter((line) => !NOISE.test(line)).at(-1);
  return reason?.trim().slice(0, 300);
}

/**
 * Rewrites the error of a stdio server that exited before the handshake
 * completed so that it leads with the server's reason; other errors are
 * returned as they are.
 */
export async function explainStartFailure(
  error: unknown,
  transport: ClientTransport,
): Promise<unknown> {
  if (!(error instanceof ServerUnreachableError)) return error;
  const stdio = transport as Partial<{ stderrTail: readonly string[]; exitCode: number }>;
  if (!Array.isArray(stdio.stderrTail)) return error;
  // The exit can be seen before the last of stderr is read; give the reader a moment.
  await Promise.race([transport.closed.catch(() => undefined), sleep(1000)]);
  await sleep(20);
  const code = stdio.exitCode;
  const reason = failureReason(stdio.stderrTail);
  if (code === undefined || reason === undefined) return error;
  return new ServerUnreachableError(
    `${transport.describe} exited with code ${code} before completing initialize: ${reason}`,
    { cause: error },
  );
}
