/**
 * What looks volatile to the miss hint, table-driven: each kind with one
 * value it must take and a near miss it must not.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { looksVolatile, volatilePaths } from "../../src/replay/volatile_hint.ts";

const ROWS: [kind: string, hit: unknown, miss: unknown][] = [
  ["uuid", "4f1c2a9e-0b7d-4e22-9a51-3f0c8d2b7e10", "4f1c2a9e-0b7d-4e22-9a51"],
  ["iso timestamp", "2026-12-02T07:41:15.866Z", "2026-12-02"],
  ["epoch ms number", 1764662400123, 1764],
  ["epoch s string", "1764662400", "176466240"],
  ["long hex", "9f86d081884c7d65", "9f86d081884c7d6"],
  ["base64", "dGhpcyBpcyBhIG5vbmNlIQ2x", "averyordinaryidentifiername"],
  ["slug", "dGhpcyBpcyBhIG5vbmNlIQ2x", "order-2026-0001-shipping-label"],
];

for (const [kind, hit, miss] of ROWS) {
  test(`volatile: ${kind}`, () => {
    assert.equal(looksVolatile(hit), true, JSON.stringify(hit));
    assert.equal(looksVolatile(miss), false, JSON.stringify(miss));
  });
}

test("volatilePaths: only when every difference is volatile on both sides, and the shape is the same", () => {
  const a = { arguments: { id: "4f1c2a9e-0b7d-4e22-9a51-3f0c8d2b7e10", n: 1 } };
  const b = { arguments: { id: "9a0b1c2d-3e4f-4a5b-8c6d-7e8f9a0b1c2d", n: 1 } };
  assert.deepEqual(volatilePaths(a, b), ["params.arguments.id"]);
  assert.deepEqual(volatilePaths(a, { arguments: { ...b.arguments, n: 2 } }), []);
  assert.deepEqual(volatilePaths(a, { arguments: { id: b.arguments.id } }), []);
  assert.deepEqual(volatilePaths(a, { arguments: { id: "plain", n: 1 } }), []);
});
