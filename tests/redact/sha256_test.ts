import { test } from "node:test";
import assert from "node:assert/strict";
import { createHash, createHmac } from "node:crypto";
import { hmacSha256Hex, sha256Hex } from "../../src/redact/sha256.ts";

const inputs = [
  "",
  "abc",
  "a".repeat(55),
  "a".repeat(56),
  "a".repeat(64),
  "a".repeat(1000),
  "héllo ✓ 😀",
];
const keys = ["", "key", "k".repeat(64), "k".repeat(100)];

test("SHA-256 agrees with node:crypto at block boundaries and on non-ASCII text", () => {
  for (const input of inputs) {
    assert.equal(sha256Hex(input), createHash("sha256").update(input, "utf8").digest("hex"));
  }
});

test("HMAC-SHA-256 agrees with node:crypto, including keys longer than a block", () => {
  for (const input of inputs) {
    for (const key of keys) {
      assert.equal(
        hmacSha256Hex(key, input),
        createHmac("sha256", key).update(input, "utf8").digest("hex"),
      );
    }
  }
});
