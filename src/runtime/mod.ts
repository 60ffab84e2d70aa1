/**
 * The host runtime. Import {@linkcode runtime} instead of touching `Deno`,
 * `Bun` or `process`.
 *
 * @module
 */
import { nodeCompatRuntime } from "./node_compat.ts";
import { denoRuntime } from "./deno.ts";
import type { Runtime } from "./types.ts";

export type * from "./types.ts";

/** The runtime this process runs on. */
export const runtime: Runtime = nodeCompatRuntime.name === "deno"
  ? denoRuntime(nodeCompatRuntime)
  : nodeCompatRuntime;
