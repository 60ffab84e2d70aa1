/**
 * vitest helper: reads the test's name from the test context and finishes
 * the cassette with `onTestFinished`. Nothing imports vitest here.
 *
 * @module
 */
import { cassetteForTest, finishAfterTest } from "./core.ts";
import type { TestCassette, TestCassetteOptions } from "./core.ts";

/** The parts of a vitest TestContext used here. */
export interface VitestContext {
  task: {
    name: string;
    suite?: { name: string; suite?: unknown };
    /** Set by vitest as the test runs; `state` is `"fail"` once it failed. */
    result?: { state?: string };
  };
  onTestFinished?: (fn: () => Promise<void> | void) => void;
}

function suiteNames(suite: { name: string; suite?: unknown } | undefined): string[] {
  if (!suite || suite.name === "") return [];
  return [...suiteNames(suite.suite as { name: string; suite?: unknown } | undefined), suite.name];
}

/**
 * The cassette for this test, finished (failing on misses) when it ends.
 *
 * @example
 * ```ts
 * import { test } from "vitest";
 * test("lists tools", async (context) => {
 *   const server = await useVitestCassette(context, { server: ["node", "server.js"] });
 *   // new StdioClientTransport({ command: server.command, args: server.args }) ...
 * });
 * ```
 */
export async function useVitestCassette(
  context: VitestContext,
  options: TestCassetteOptions = {},
): Promise<TestCassette> {
  const server = await cassetteForTest(
    [...suiteNames(context.task.suite), context.task.name],
    options,
  );
  context.onTestFinished?.(() => finishAfterTest(server, context.task.result?.state === "fail"));
  return server;
}
