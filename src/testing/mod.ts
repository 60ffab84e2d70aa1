/**
 * Test-runner helpers: each derives the cassette's path from the test's
 * name under `tests/cassettes/` (configurable with `dir`, created when
 * missing), starts what the record mode asks for, and fails the test on
 * replay misses. None imports a test runner, so this module loads on Deno,
 * Node and Bun alike.
 *
 * One finishing rule ({@linkcode finishAfterTest}): a failed test ends at
 * once what its client left running and keeps its own error; a passed test
 * waits for the launches to end and fails on misses. Where the runner has a
 * hook after the test it is automatic:
 *
 * - `node:test`: {@linkcode useCassette}`(t, options)` (`t.after`)
 * - vitest: {@linkcode useVitestCassette}`(context, options)` (`onTestFinished`)
 * - `bun:test` (or any runner): `test(name, `{@linkcode withCassette}`(name, options, body))`
 *
 * Where it has none, close the client in a `finally` and call `finish()`
 * after the assertions:
 *
 * - `Deno.test`: {@linkcode useDenoCassette}`(t, options)`
 * - jest: {@linkcode useJestCassette}`(options)`
 *
 * The result `finish()` resolves with holds the replay's journal; the
 * expectations ask it what the client did: {@linkcode expectCalled},
 * {@linkcode expectNeverCalled}, {@linkcode expectCalledInOrder},
 * {@linkcode expectAllPlayed}.
 *
 * @example
 * ```ts
 * import { test } from "node:test";
 * import { useCassette } from "@mcp-cassette/mcp-cassette/testing";
 *
 * test("lists tools", async (t) => {
 *   const server = await useCassette(t, { server: ["node", "server.js"] });
 *   // hand { command: server.command, args: server.args } to the client, assert
 * });
 * ```
 *
 * @module
 */
export {
  cassetteFileName,
  cassetteForTest,
  cassettePathFor,
  DEFAULT_CASSETTE_DIR,
  finishAfterTest,
  withCassette,
} from "./core.ts";
export type { TestCassette, TestCassetteOptions } from "./core.ts";
export { useCassette } from "./node.ts";
export type { NodeTestContext } from "./node.ts";
export { useDenoCassette } from "./deno.ts";
export type { DenoTestContext } from "./deno.ts";
export { useVitestCassette } from "./vitest.ts";
export type { VitestContext } from "./vitest.ts";
export { useJestCassette } from "./jest.ts";
export {
  expectAllPlayed,
  ExpectationError,
  expectCalled,
  expectCalledInOrder,
  expectNeverCalled,
} from "./expect.ts";
export type { AllPlayedOptions, CalledOptions, ExpectedCall, JournalSource } from "./expect.ts";
