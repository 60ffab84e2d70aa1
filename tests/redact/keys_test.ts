import { describe, it } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { isCredentialKey, isProtocolKey } from "../../src/redact/mod.ts";
import { CREDENTIAL_KEY_PATTERN } from "../../src/redact/keys.ts";

describe("the credential key rule", () => {
  it("matches keys ending in a credential word, folding case, - and _", () => {
    for (
      const key of [
        "token",
        "access_token",
        "refreshToken",
        "id_token",
        "accesstoken",
        "secret",
        "clientSecret",
        "client_secret",
        "password",
        "PASSWORD",
        "db-password",
        "passwd",
        "apikey",
        "api_key",
        "apiKey",
        "X-API-Key",
        "x-api-key",
        "Authorization",
        "Proxy-Authorization",
        "credentials",
        "Cookie",
        "private_key",
        "aws_secret_access_key",
        "passwordHash",
        "apiKeys",
      ]
    ) {
      assert.equal(isCredentialKey(key), true, key);
    }
  });

  it("leaves count-like and protocol keys alone", () => {
    for (
      const key of [
        "maxTokens",
        "max_tokens",
        "totalTokens",
        "inputTokens",
        "outputTokens",
        "tokens",
        "tokenCount",
        "token_count",
        "tokenLimit",
        "tokenType",
        "token_type",
        "progressToken",
        "nextPageToken",
        "page_token",
        "continuationToken",
        "cursor",
        "nextCursor",
        "requestState",
        "Mcp-Session-Id",
        "sessionId",
        "tokenizer",
        "keyboard",
        "monkey",
        "secretary",
        "passwordPolicy",
        "authorizationUrl",
        "name",
        "",
      ]
    ) {
      assert.equal(isCredentialKey(key), false, key);
    }
  });

  it("names the protocol keys whose values are never touched", () => {
    for (
      const key of [
        "progressToken",
        "cursor",
        "nextCursor",
        "requestState",
        "maxTokens",
        "Mcp-Session-Id",
        "protocolVersion",
      ]
    ) {
      assert.equal(isProtocolKey(key), true, key);
    }
    assert.equal(isProtocolKey("password"), false);
  });
});

describe("the credential key pattern", () => {
  const words = [
    "token",
    "secret",
    "password",
    "passwd",
    "passphrase",
    "api",
    "key",
    "keys",
    "private",
    "access",
    "authorization",
    "credentials",
    "cookie",
    "apikey",
    "value",
    "hash",
    "raw",
    "progress",
    "page",
    "next",
    "client",
    "refresh",
    "max",
    "count",
    "name",
    "id",
    "x",
    "db",
  ];
  const word = fc.oneof(
    fc.constantFrom(...words),
    fc.string({ unit: fc.constantFrom("a", "k", "e", "y", "t", "o", "n"), maxLength: 4 }),
  );
  const separator = fc.constantFrom("", "_", "-", ".", " ", "__");
  const casing = fc.constantFrom("lower", "upper", "camel", "title");
  const key = fc.tuple(fc.array(fc.tuple(word, separator), { minLength: 1, maxLength: 4 }), casing)
    .map(([parts, how]) =>
      parts.map(([text, sep], index) => {
        const cased = how === "upper"
          ? text.toUpperCase()
          : how === "title" || (how === "camel" && index > 0)
          ? text.charAt(0).toUpperCase() + text.slice(1)
          : text;
        return (index === 0 ? "" : sep) + cased;
      }).join("")
    );

  it("is found in every key the rule calls a credential", () => {
    const pattern = new RegExp(CREDENTIAL_KEY_PATTERN);
    let credentials = 0;
    fc.assert(
      fc.property(key, (candidate) => {
        if (!isCredentialKey(candidate)) return;
        credentials++;
        assert.match(candidate, pattern);
      }),
      { numRuns: 5000 },
    );
    assert.ok(credentials > 500, `only ${credentials} credential keys generated`);
  });
});
