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
 * The cassette for this test (step names included). `Deno.test` has no hook
 * after a test, so finish it yourself: close the client in a `finally` (a
 * failed assertion then leaves nothing running), and call `finish()`, which
 * throws on replay misses, after the assertions.
 *
 * @example
 * ```ts
 * Deno.test("lists tools", async (t) => {
 *   const server = await useDenoCassette(t, { server: ["node", "server.js"] });
 *   // const client = ...; await client.connect(new StdioClientTransport({ command: server.command, args: server.args }));
 *   try {
 *     // ... assert ...
 *   } finally {
 *     // await client.close();
 *   }
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
