/**
 * `node:test` helper (also right for `deno test` and `bun test` running
 * `node:test` files). Takes the test context structurally: nothing imports
 * `node:test` here.
 *
 * @module
 */
import { cassetteForTest, finishAfterTest } from "./core.ts";
import type { TestCassette, TestCassetteOptions } from "./core.ts";

/** The parts of a `node:test` TestContext used here. */
export interface NodeTestContext {
  name: string;
  /** Node, Bun and Deno's node:test have it; finishing then happens after the test on its own. */
  after?: (fn: () => Promise<void> | void) => void;
  /** Read in `after`: false once the test failed (Node and Bun; Deno's node:test lacks it). */
  readonly passed?: boolean;
}

/**
 * The cassette for this test, at `tests/cassettes/<test name>.cassette.jsonl`;
 * it is finished after the test by `t.after` (failing the test on misses,
 * unless it failed already), or by `finish()` where a runner has no `t.after`.
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
  t.after?.(() => finishAfterTest(server, t.passed === undefined ? undefined : !t.passed));
  return server;
}
