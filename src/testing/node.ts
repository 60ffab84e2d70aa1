/**
 * `node:test` helper (also right for `deno test` and `bun test` running
 * `node:test` files). Takes the test context structurally: nothing imports
 * `node:test` here.
 *
 * @module
 */
import { cassetteForTest } from "./core.ts";
import type { TestCassette, TestCassetteOptions } from "./core.ts";

/** The parts of a `node:test` TestContext used here. */
export interface NodeTestContext {
  name: string;
  /** Present on Node 20; finishing then happens after the test on its own. */
  after?: (fn: () => Promise<void> | void) => void;
}

/**
 * The cassette for this test, at `tests/cassettes/<test name>.cassette.jsonl`;
 * it is finished (failing on misses) after the test when the runner supports
 * `t.after`, else call `finish()`.
 *
 * @example
 * ```ts
 * import { test } from "node:test";
 * import { useCassette } from "@mcp-cassette/mcp-cassette/testing";
 *
 * test("lists tools", async (t) => {
 *   const server = await useCassette(t, { server: ["node", "server.js"] });
 *   // new StdioClientTransport({ command: server.command, args: server.args }) ...
 *   await server.finish();
 * });
 * ```
 */
export async function useCassette(
  t: NodeTestContext,
  options: TestCassetteOptions = {},
): Promise<TestCassette> {
  const server = await cassetteForTest([t.name], options);
  t.after?.(async () => {
    await server.finish();
  });
  return server;
}
