/**
 * Plain TCP on the host runtime: `Deno.listen`/`Deno.connect` on Deno,
 * `node:net` on Node and Bun, each connection as a pair of Web Streams.
 * Apart from {@linkcode runtime} so that only the byte-level HTTP recorder
 * loads it.
 *
 * @module
 */
import type { Tcp } from "./types.ts";

/** TCP on this runtime. */
export const tcp: Tcp = (globalThis as { Deno?: unknown }).Deno
  ? (await import("./deno_tcp.ts")).denoTcp
  : (await import("./node_tcp.ts")).nodeTcp;
