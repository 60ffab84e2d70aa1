/**
 * Deno's own stdio streams, which are Web streams natively and skip the
 * node-compat translation layer on the hot path of a replay.
 *
 * @module
 */
import type { Runtime } from "./types.ts";

interface DenoStdio {
  stdin: { readable: ReadableStream<Uint8Array> };
  stdout: { writable: WritableStream<Uint8Array> };
  stderr: { writable: WritableStream<Uint8Array> };
  args: string[];
}

/** Overrides the stdio streams of `base` with Deno's native ones. */
export function denoRuntime(base: Runtime): Runtime {
  const deno = (globalThis as unknown as { Deno: DenoStdio }).Deno;
  let stdin: ReadableStream<Uint8Array> | undefined;
  let stdout: WritableStream<Uint8Array> | undefined;
  let stderr: WritableStream<Uint8Array> | undefined;
  // Copy descriptors, not values: spreading would run base's lazy stdio getters.
  const rest = Object.getOwnPropertyDescriptors(base);
  delete (rest as Record<string, unknown>).stdin;
  delete (rest as Record<string, unknown>).stdout;
  delete (rest as Record<string, unknown>).stderr;
  return Object.defineProperties({
    args: deno.args,
    get stdin() {
      return stdin ??= deno.stdin.readable;
    },
    get stdout() {
      return stdout ??= deno.stdout.writable;
    },
    get stderr() {
      return stderr ??= deno.stderr.writable;
    },
  }, rest) as unknown as Runtime;
}
