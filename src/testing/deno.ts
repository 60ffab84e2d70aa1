/**
 * `Deno.test` helper. Takes the test context structurally, so importing it
 * on another runtime costs nothing.
 *
 * @module
 */
import { cassetteForTest } from "./core.ts";
import type { TestCassette, TestCassetteOptions } from "./core.ts";

/** The parts of a `Deno.TestContext` used here. */
export interface DenoTestContext {
  name: string;
  /** The enclosing step's context, whose names join the file name. */
  parent?: DenoTestContext;
}

function names(t: DenoTestContext): string[] {
  return t.parent ? [...names(t.parent), t.name] : [t.name];
}

/**
 * The cassette for this test (step names included); finish it with
 * `finish()`, which throws on replay misses.
 *
 * @example
 * ```ts
 * Deno.test("lists tools", async (t) => {
 *   const server = await useDenoCassette(t, { server: ["node", "server.js"] });
 *   // new StdioClientTransport({ command: server.command, args: server.args }) ...
 *   await server.finish();
 * });
 * ```
 */
export function useDenoCassette(
  t: DenoTestContext,
  options: TestCassetteOptions = {},
): Promise<TestCassette> {
  return cassetteForTest(names(t), options);
}
