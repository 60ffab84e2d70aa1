import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { isCredentialKey, isProtocolKey } from "../../src/redact/mod.ts";

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
