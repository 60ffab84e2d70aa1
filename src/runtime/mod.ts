/**
 * The host runtime. Import {@linkcode runtime} instead of touching `Deno`,
 * `Bun` or `process`.
 *
 * @module
 */
import type { Runtime } from "./types.ts";

export type * from "./types.ts";

/**
 * The runtime this process runs on: Deno's own APIs on Deno, `node:`
 * modules on Node and Bun. Loaded dynamically so that Deno never loads the
 * `node:` modules the other implementation imports.
 */
export const runtime: Runtime = (globalThis as { Deno?: unknown }).Deno
  ? (await import("./deno.ts")).denoRuntime
  : (await import("./node_compat.ts")).nodeCompatRuntime;
