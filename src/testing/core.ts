/**
 * The runner-neutral core of the test helpers: a cassette path from a
 * test's name, and a server started for that test.
 *
 * @module
 */
import path from "node:path";
import { startCassette } from "../api/start.ts";
import type { CassetteOptions, CassetteResult, CassetteServer } from "../api/start.ts";

/** The default folder for per-test cassettes. */
export const DEFAULT_CASSETTE_DIR = "tests/cassettes";

/** Options shared by every runner helper. */
export interface TestCassetteOptions extends Omit<CassetteOptions, "path"> {
  /** Folder of the cassettes (default `tests/cassettes/`, relative to the working directory). */
  dir?: string;
  /** Use this cassette name instead of one derived from the test's name. */
  name?: string;
  /** Fail the test when recorded requests were never asked for. */
  failOnUnplayed?: boolean;
}

/**
 * Turns a test's name (with its suite names) into a file name: lower case,
 * runs of anything but letters and digits become `-`.
 *
 * @example
 * ```ts
 * cassetteFileName(["weather", "forecast for Paris"]); // "weather--forecast-for-paris.cassette.jsonl"
 * ```
 */
export function cassetteFileName(names: readonly string[]): string {
  const slug = names.map((name) =>
    name.normalize("NFKD").replace(/[\u0300-\u036f]/g, "").toLowerCase().replace(/[^a-z0-9]+/g, "-")
      .replace(/^-|-$/g, "")
  ).filter((part) => part !== "").join("--");
  if (slug === "") throw new TypeError("A test needs a name to derive its cassette's file name");
  return `${slug.slice(0, 120)}.cassette.jsonl`;
}

/** The cassette path for a test. */
export function cassettePathFor(
  names: readonly string[],
  options: { dir?: string; name?: string } = {},
): string {
  return path.join(options.dir ?? DEFAULT_CASSETTE_DIR, options.name ?? cassetteFileName(names));
}

/**
 * A server started for one test; `finish` also runs the failure checks the
 * options asked for. (No `Symbol.asyncDispose`: Node 20 and JSR's type check
 * of the public API lack it.)
 */
export type TestCassette = CassetteServer;

/**
 * Starts the cassette for the test named `names`.
 *
 * @example
 * ```ts
 * const server = await cassetteForTest(["lists tools"], { server: ["node", "server.js"] });
 * // new StdioClientTransport({ command: server.command, args: server.args }) ...
 * await server.finish();
 * ```
 */
export async function cassetteForTest(
  names: readonly string[],
  options: TestCassetteOptions = {},
): Promise<TestCassette> {
  const { dir, name, failOnUnplayed, ...rest } = options;
  const server = await startCassette({ ...rest, path: cassettePathFor(names, { dir, name }) });
  let result: Promise<CassetteResult> | undefined;
  const finish = (finishOptions?: { failOnUnplayed?: boolean; waitMs?: number }) =>
    result ??= server.finish({ failOnUnplayed, ...finishOptions });
  return { ...server, finish };
}

/**
 * Wraps a test body for any runner that takes `(name, fn)`: the body gets
 * the server, and the test fails on misses once it returns.
 *
 * @example
 * ```ts
 * import { test } from "bun:test";
 * test("lists tools", withCassette("lists tools", { server: ["node", "server.js"] }, async (server) => {
 *   // connect a client to server.command / server.args and assert
 * }));
 * ```
 */
export function withCassette(
  name: string | readonly string[],
  options: TestCassetteOptions,
  body: (server: TestCassette) => Promise<void> | void,
): () => Promise<void> {
  return async () => {
    const server = await cassetteForTest(typeof name === "string" ? [name] : name, options);
    let failed = false;
    try {
      await body(server);
    } catch (error) {
      failed = true;
      throw error;
    } finally {
      // A failing body's own error matters more than the misses it caused.
      if (failed) await server.finish().catch(() => {});
      else await server.finish();
    }
  };
}
