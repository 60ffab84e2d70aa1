import { describe, it } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { createRedactor } from "../../src/redact/mod.ts";
import type { Json } from "../../src/jsonrpc.ts";

const SECRETS = [
  "ann@example.org",
  "+14155552671",
  "192.168.0.7",
  "123-45-6789",
  "4111 1111 1111 1111",
  "GB82WEST12345698765432",
  "AKIAIOSFODNN7EXAMPLE",
  "Bearer abcdef1234567890xyz",
  "password=hunter2",
  '{"token":"t0k"}',
];
const PROTOCOL_KEYS = [
  "progressToken",
  "cursor",
  "nextCursor",
  "requestState",
  "maxTokens",
  "protocolVersion",
  "sessionId",
];
const OTHER_KEYS = [
  "token",
  "password",
  "api_key",
  "note",
  "text",
  "data",
  "name",
  "items",
  "X-API-Key",
  "uri",
];

/** Strings that mix plain text, secrets and placeholders. */
const text = fc.oneof(
  fc.string(),
  fc.constantFrom(...SECRETS),
  fc.tuple(fc.string(), fc.constantFrom(...SECRETS), fc.string()).map((parts) => parts.join(" ")),
  fc.constant("[REDACTED:email]"),
);

const json: fc.Arbitrary<Json> = fc.letrec<{ value: Json }>((tie) => ({
  value: fc.oneof(
    { depthSize: "small" },
    text,
    fc.integer(),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie("value"), { maxLength: 4 }),
    fc.dictionary(fc.constantFrom(...OTHER_KEYS, ...PROTOCOL_KEYS), tie("value"), { maxKeys: 5 }),
  ),
})).value;

const message = fc.record({
  jsonrpc: fc.constant("2.0"),
  id: fc.oneof(fc.integer(), text),
  method: text,
  params: fc.dictionary(fc.constantFrom(...OTHER_KEYS, ...PROTOCOL_KEYS, "_meta"), json, {
    maxKeys: 6,
  }),
}) as fc.Arbitrary<Json>;

/** Every value found under a protocol key (and the envelope), by path. */
function protocolValues(
  value: Json,
  path = "",
  root = true,
  out = new Map<string, string>(),
): Map<string, string> {
  if (value === null || typeof value !== "object") return out;
  for (const [key, child] of Object.entries(value)) {
    const here = `${path}/${key}`;
    if (PROTOCOL_KEYS.includes(key) || (root && ["jsonrpc", "id", "method"].includes(key))) {
      out.set(here, JSON.stringify(child));
    } else {
      protocolValues(child, here, false, out);
    }
  }
  return out;
}

describe("redaction properties", () => {
  it("is idempotent and never changes values under protocol keys", async () => {
    const redactor = await createRedactor({ rules: ["key:*a*", "regex:[0-9]{3,}"] });
    fc.assert(
      fc.property(message, fc.constantFrom("c2s" as const, "s2c" as const), (msg, dir) => {
        const once = redactor.message(msg, dir);
        assert.deepEqual(redactor.message(once, dir), once);
        assert.deepEqual(protocolValues(once), protocolValues(msg));
      }),
      { numRuns: 300 },
    );
  });

  it("leaves no seeded secret in the output", async () => {
    const redactor = await createRedactor();
    fc.assert(
      fc.property(
        fc.string(),
        fc.constantFrom(...SECRETS.slice(0, 8)),
        fc.string(),
        (before, secret, after) => {
          const out = redactor.text(`${before} ${secret} ${after}`, "s2c");
          assert.ok(!out.includes(secret.replace("Bearer ", "")), out);
          assert.equal(redactor.text(out, "s2c"), out);
        },
      ),
      { numRuns: 300 },
    );
  });
});
