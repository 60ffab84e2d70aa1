/**
 * `absolutePath` (src/files/absolute.ts) resolves as `node:path`'s
 * `resolve` does, without loading it at replay's start.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import { absolutePath } from "../../src/files/absolute.ts";

test("absolutePath: the same as path.resolve for relative, absolute, dotted and trailing-slash paths", () => {
  const cases = [
    "a/b",
    "../../tmp/x.jsonl",
    "/tmp/../etc/./x",
    "./x/",
    "/",
    ".",
    "a/../../..",
    "a//b",
  ];
  for (const given of cases) assert.equal(absolutePath(given), path.resolve(given), given);
});
