import { describe, it } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { createRedactor } from "../../src/redact/mod.ts";
import type { Json } from "../../src/jsonrpc/messages.ts";

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

/** One of each kind of thing a detector finds, and keys spelled every way the key rule reads. */
const EVERY_SECRET = [
  ...SECRETS,
  "2001:db8:85a3::8a2e:370:7334",
  "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl",
  "ghp_" + "a1".repeat(18),
  "sk-ant-" + "b".repeat(24),
  "sk-proj-" + "c".repeat(24),
  "xoxb-" + "1234567890-abc",
  "AIza" + "d".repeat(35),
  "-----BEGIN PRIVATE KEY-----\nabc\n-----END PRIVATE KEY-----",
];
const CREDENTIAL_SPELLINGS = [
  "apiKey",
  "APIKey",
  "api-key",
  "API_KEY",
  "api key",
  "clientSecret",
  "accesstoken",
  "refreshToken",
  "passwd",
  "passphrase",
  "set-cookie",
  "Authorization",
  "privateKey",
  "access.key",
  "secretKey",
  "password_hash",
  "myToken",
  "credentials",
];
/** Strings a line's text may hide from a careless look: escapes, quotes, embedded JSON. */
const TRICKY = [
  'say "hi"',
  "line\nbreak",
  "tab\there",
  "\u0000",
  "\ud800",
  '{"password":"x"}',
  "a\\b",
];

const anyText = fc.oneof(
  fc.string(),
  fc.string({ unit: "grapheme", maxLength: 12 }),
  fc.constantFrom(...EVERY_SECRET, ...TRICKY),
  fc.tuple(fc.string({ maxLength: 6 }), fc.constantFrom(...EVERY_SECRET, ...TRICKY)).map((parts) =>
    parts.join("")
  ),
);
const anyKey = fc.oneof(
  fc.constantFrom(...OTHER_KEYS, ...PROTOCOL_KEYS, ...CREDENTIAL_SPELLINGS),
  fc.string({ maxLength: 8 }),
);
const anyJson: fc.Arbitrary<Json> = fc.letrec<{ value: Json }>((tie) => ({
  value: fc.oneof(
    { depthSize: "small" },
    anyText,
    fc.integer(),
    fc.constant(null),
    fc.array(tie("value"), { maxLength: 3 }),
    fc.dictionary(anyKey, tie("value"), { maxKeys: 4 }),
    fc.record({ jsonrpc: fc.constantFrom("2.0", "2.0.1", "ann@example.org"), value: tie("value") }),
  ),
})).value;
const anyMessage = fc.oneof(
  anyJson,
  fc.record({ jsonrpc: fc.constant("2.0"), id: fc.integer(), method: anyText, params: anyJson }),
  fc.record({ result: anyJson, jsonrpc: fc.constant("2.0"), id: fc.integer() }),
) as fc.Arbitrary<Json>;

describe("judging a line without parsing it", () => {
  it("never vouches for a line whose message the redactor would change", async () => {
    const redactor = await createRedactor();
    let kept = 0;
    fc.assert(
      fc.property(anyMessage, fc.constantFrom("c2s" as const, "s2c" as const), (msg, dir) => {
        const line = JSON.stringify(msg);
        if (!redactor.keepsLine(line, dir)) return;
        kept++;
        assert.deepEqual(redactor.message(JSON.parse(line), dir), JSON.parse(line), line);
      }),
      { numRuns: 3000 },
    );
    // Not vacuous: plain lines are vouched for.
    assert.ok(kept > 300, `only ${kept} of 3000 lines were judged`);
  });

  it("refuses lines with a credential key, a secret, or an escape", async () => {
    const redactor = await createRedactor();
    for (const key of CREDENTIAL_SPELLINGS) {
      assert.equal(
        redactor.keepsLine(JSON.stringify({ params: { [key]: "x" } }), "c2s"),
        false,
        key,
      );
    }
    for (const secret of EVERY_SECRET) {
      assert.equal(
        redactor.keepsLine(JSON.stringify({ text: `see ${secret}` }), "s2c"),
        false,
        secret,
      );
    }
    assert.equal(redactor.keepsLine('{"text":"\\u0061nn@example.org"}', "s2c"), false);
    assert.equal(
      redactor.keepsLine(
        '{"jsonrpc":"2.0","id":3,"result":{"content":[{"type":"text","text":"Echo: m1"}]}}',
        "s2c",
      ),
      true,
    );
  });

  it("judges nothing when a rule cannot be judged from text (pointer, key glob, user regex)", async () => {
    const plain = '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo"}}';
    for (const rule of ["/params/name", "key:*a*", "regex:[0-9]{3,}"]) {
      const redactor = await createRedactor({ rules: [rule] });
      assert.equal(redactor.keepsLine(plain, "c2s"), false, rule);
    }
  });
});
