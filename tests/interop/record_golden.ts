/**
 * Rewrites the modern-era (2026-07-28) golden cassettes under golden/: each
 * server of golden.ts, over stdio and over Streamable HTTP, recorded while
 * the TypeScript SDK v2 client (pinned to 2026-07-28) runs session.json.
 * Run `bash tests/interop/setup.sh` first (the Python server needs the venv).
 *
 * Usage: deno run -A --no-check tests/interop/record_golden.ts
 */
import process from "node:process";
import { MODERN_SERVERS, modernGolden, recordModern } from "./golden.ts";

for (const server of MODERN_SERVERS) {
  for (const transport of ["stdio", "http"] as const) {
    const file = modernGolden(server, transport);
    await recordModern(server, transport, file);
    process.stderr.write(`recorded ${file}\n`);
  }
}
