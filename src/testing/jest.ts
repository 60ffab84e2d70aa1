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
 * The cassette for the running jest test; call `finish()` at its end.
 *
 * @example
 * ```ts
 * test("lists tools", async () => {
 *   const server = await useJestCassette({ server: ["node", "server.js"] });
 *   // new StdioClientTransport({ command: server.command, args: server.args }) ...
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
