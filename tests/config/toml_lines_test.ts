/** The key scanner that gives config errors their line numbers. */
import { test } from "node:test";
import assert from "node:assert/strict";
import { locateKeys } from "../../src/config/toml_lines.ts";

test("locateKeys: headers, bare/quoted/dotted keys, nested tables and multi-line strings", () => {
  const lines = locateKeys([
    "# comment", // 1
    "replay.strict = true", // 2
    "[lint]", // 3
    'select = ["MCL1"]', // 4
    '"fail-on" = "warning"', // 5
    'notes = """', // 6
    "ignore = this is text, not a key", // 7
    '"""', // 8
    "ignore = []", // 9
    "[ verify ]  # spaced", // 10
    "pace.x = 1", // 11
    "[verify.extra]", // 12
    "json = true", // 13
    "json = false", // 14, still a key of [verify.extra]
  ].join("\n"));
  assert.equal(lines.section("replay"), 2);
  assert.equal(lines.key("replay", "strict"), 2);
  assert.equal(lines.section("lint"), 3);
  assert.equal(lines.key("lint", "select"), 4);
  assert.equal(lines.key("lint", "fail-on"), 5);
  assert.equal(lines.key("lint", "ignore"), 9);
  assert.equal(lines.section("verify"), 10);
  assert.equal(lines.key("verify", "pace"), 11);
  assert.equal(lines.key("verify", "extra"), 12);
  assert.equal(lines.key("verify", "json"), undefined);
  assert.equal(lines.section("testing"), undefined);
});
