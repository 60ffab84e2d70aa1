/**
 * The upkeep tests' server of ours (tests/fixtures/upkeep/nonce_server.mjs,
 * no SDK): its `stamp` tool checks a token taken from the environment and
 * echoes a value set there. What several of the tests share about it.
 */
import path from "node:path";
import process from "node:process";
import { CLI, NODE, ROOT } from "../helpers.ts";

/** The server's command line. */
export const STAMP_SERVER = [NODE, path.join(ROOT, "tests/fixtures/upkeep/nonce_server.mjs")];

/** The environment of a run whose secret is `value`: the server checks and echoes it. */
export function stampEnv(value: string): Record<string, string> {
  return {
    ...process.env as Record<string, string>,
    STAMP_SECRET: value,
    STAMP_TOKEN: value,
    STAMP_VALUE: value,
  };
}

/** `record -o cassette --secret-env STAMP_SECRET -- server…` through the CLI. */
export function recordWithSecret(cassette: string, server = STAMP_SERVER): string[] {
  return [...CLI, "record", "-o", cassette, "--secret-env", "STAMP_SECRET", "--", ...server];
}
