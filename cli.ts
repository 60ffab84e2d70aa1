#!/usr/bin/env -S deno run -A
/**
 * The `mcp-cassette` command.
 *
 * @example
 * ```sh
 * deno run -A cli.ts record -o session.cassette.jsonl -- npx -y @modelcontextprotocol/server-everything
 * deno run -A cli.ts replay session.cassette.jsonl
 * ```
 *
 * @module
 */
import { main } from "./src/cli/main.ts";
import { runtime } from "./src/runtime/mod.ts";

runtime.exit(await main(runtime.args));
