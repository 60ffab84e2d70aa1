/**
 * jest helper: the test's full name comes from `expect.getState()`, the
 * global jest sets while a test runs. Nothing imports jest here.
 *
 * @module
 */
import { cassetteForTest } from "./core.ts";
import type { TestCassette, TestCassetteOptions } from "./core.ts";

interface JestExpect {
  getState(): { currentTestName?: string };
}

/**
 * The cassette for the running jest test. jest takes no hook from inside a
 * test, so finish it yourself: close the client in a `finally` (jest waits
 * for a server process left running), and call `finish()`, which throws on
 * replay misses, after the assertions. Works from ES modules and, through
 * the npm package's CommonJS build, from `require` (ts-jest, babel).
 *
 * @example
 * ```ts
 * test("lists tools", async () => {
 *   const server = await useJestCassette({ server: ["node", "server.js"] });
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
export function useJestCassette(options: TestCassetteOptions = {}): Promise<TestCassette> {
  const expectGlobal = (globalThis as { expect?: JestExpect }).expect;
  const name = expectGlobal?.getState?.().currentTestName;
  if (!name) throw new TypeError("useJestCassette must be called inside a running jest test");
  return cassetteForTest([name], options);
}
