/**
 * The runner-neutral core of the test helpers: a cassette path from a
 * test's name, and a server started for that test.
 *
 * @module
 */
import path from "node:path";
import { startCassette } from "../api/start.ts";
import type {
  CassetteOptions,
  CassetteResult,
  CassetteServer,
  FinishOptions,
} from "../api/start.ts";
import { UsageError } from "../errors/errors.ts";
import { runtime } from "../runtime/mod.ts";

/** The default folder for per-test cassettes. */
export const DEFAULT_CASSETTE_DIR = "tests/cassettes";

/** Options shared by every runner helper. */
export interface TestCassetteOptions extends Omit<CassetteOptions, "path"> {
  /**
   * Folder of the cassettes (default `tests/cassettes/`, relative to the
   * working directory); created when missing.
   */
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
  const cassette = cassettePathFor(names, { dir, name });
  // A first recording should not need a mkdir in every test suite.
  await runtime.mkdir(path.dirname(path.resolve(runtime.cwd(), cassette)));
  const server = await startCassette({ ...rest, path: cassette });
  let result: Promise<CassetteResult> | undefined;
  const finish = (finishOptions?: FinishOptions) =>
    result ??= server.finish({ failOnUnplayed, ...finishOptions });
  return { ...server, finish };
}

/**
 * How long a test whose outcome the runner does not tell (Deno's node:test
 * has no `t.passed`) waits for its launches: a closed client has ended them
 * already, and a failed assertion should not cost the full wait.
 */
const UNKNOWN_OUTCOME_WAIT_MS = 1_000;

/**
 * The one finishing rule, for the helpers whose runner has a hook after the
 * test. A failed test ends at once what its client left running (so a failed
 * assertion costs no wait) and keeps its own error: it matters more than the
 * misses it caused. A passed test waits for the launches to end, then fails
 * on misses, and on a launch that never reported its end (a client not
 * closed: what it saw is unknown). With `failed` undefined (the runner does
 * not say) launches get a second to end, then misses fail the test.
 *
 * @example
 * ```ts
 * // in a runner's after-test hook:
 * // await finishAfterTest(server, context.failed);
 * ```
 */
export async function finishAfterTest(
  server: TestCassette,
  failed: boolean | undefined,
): Promise<void> {
  if (failed) {
    await server.finish({ stop: true }).catch(() => {});
    return;
  }
  if (failed === undefined) {
    await server.finish({ waitMs: UNKNOWN_OUTCOME_WAIT_MS });
    return;
  }
  const result = await server.finish();
  const unended = result.launches.filter((launch) => launch.code === undefined);
  if (unended.length > 0) {
    const what = unended[0].action === "record" ? "recorder" : "replay";
    throw new UsageError(
      `The ${what} of ${server.path} did not report how it ended (still running after the test, or killed): close the client, in a finally, before the test ends`,
    );
  }
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
      await finishAfterTest(server, failed);
    }
  };
}
