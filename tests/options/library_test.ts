/**
 * The library checks its options against the option schema: a misspelt
 * option or a value of the wrong type is one line naming the option as the
 * code wrote it and the flag the command line has, before anything starts.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { replayFlags } from "../../src/api/replay_flags.ts";
import type { ReplayFlags } from "../../src/api/replay_flags.ts";
import { UsageError } from "../../src/errors/errors.ts";

function refused(flags: Record<string, unknown>): string {
  try {
    replayFlags(flags as ReplayFlags);
  } catch (error) {
    assert.ok(error instanceof UsageError, String(error));
    assert.ok(!error.message.includes("\n"), error.message);
    return error.message;
  }
  assert.fail(`accepted ${JSON.stringify(flags)}`);
}

test("a misspelt library option is refused with the closest name", () => {
  assert.equal(
    refused({ paceScle: 2 }),
    "replay.paceScle is not an option of replay. Did you mean replay.paceScale?",
  );
  assert.equal(refused({ listen: "127.0.0.1:0" }), "replay.listen is not an option of replay");
});

test("a library option of the wrong type names the option and its flag", () => {
  assert.equal(
    refused({ paceScale: "2" }),
    'replay.paceScale (--pace-scale) must be a number, got "2"',
  );
  assert.equal(
    refused({ strict: "yes" }),
    'replay.strict (--strict) must be true or false, got "yes"',
  );
  assert.equal(
    refused({ pace: "fast" }),
    'replay.pace (--pace) must be "instant" or "recorded", got "fast"',
  );
  assert.equal(
    refused({ redact: "key:token" }),
    'replay.redact (--redact) must be an array of strings, got "key:token"',
  );
  assert.equal(
    refused({ detectors: 0 }),
    "replay.detectors (--no-detectors) must be true or false, got 0",
  );
});

test("good library options still become the replay's flags", () => {
  assert.deepEqual(replayFlags({ strict: true, seed: 7, detectors: false, redact: ["key:x"] }), [
    "--strict",
    "--seed",
    "7",
    "--redact",
    "key:x",
    "--no-detectors",
  ]);
});
