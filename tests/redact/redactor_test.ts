import { describe, it } from "node:test";
import assert from "node:assert/strict";
import {
  createRedactor,
  createReplayRedactor,
  isPlaceholder,
  redactCommandLine,
} from "../../src/redact/mod.ts";
import type { Json } from "../../src/jsonrpc/messages.ts";

const PNG =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";

function call(args: Record<string, Json>, extra: Record<string, Json> = {}): Json {
  return {
    jsonrpc: "2.0",
    id: 7,
    method: "tools/call",
    params: { name: "login", arguments: args, ...extra },
  };
}

describe("Redactor.message", () => {
  it("redacts a frame nested 100,000 levels deep without overflowing, and names the path", async () => {
    const redactor = await createRedactor();
    const depth = 100_000;
    const text = '{"jsonrpc":"2.0","id":1,"result":' + '{"a":['.repeat(depth / 2) +
      '{"password":"hunter2","note":"mail bob@example.com"}' +
      "]}".repeat(depth / 2) + "}";
    const message = JSON.parse(text) as Json;
    const findings = redactor.findings(message, "s2c");
    assert.deepEqual(findings.map((finding) => finding.rule).sort(), [
      "detector:email",
      "keys:default",
    ]);
    assert.ok(findings[0].path.startsWith("/result/a/0/a/0/"), findings[0].path.slice(0, 40));
    const redacted = redactor.message(message, "s2c");
    // Walked by hand: node:assert and JSON.stringify recurse.
    let at = (redacted as { result: Json }).result as Record<string, Json>;
    for (let level = 0; level < depth / 2; level++) {
      at = (at.a as Json[])[0] as Record<string, Json>;
    }
    assert.ok(isPlaceholder(at.password as string));
    assert.doesNotMatch(at.note as string, /bob@example\.com/);
    assert.notEqual(redacted, message, "a copy: the input is not changed");
  });

  it("redacts credential keys and free text, keeps protocol fields", async () => {
    const redactor = await createRedactor();
    const input = call(
      {
        password: "hunter2",
        note: "mail ann@example.org",
        maxTokens: 512,
        tokenCount: 3,
        cursor: "c-abc",
      },
      { _meta: { progressToken: "tok_secret_looking_123" } },
    );
    assert.deepEqual(
      redactor.message(input, "c2s"),
      call(
        {
          password: "[REDACTED:credential]",
          note: "mail [REDACTED:email]",
          maxTokens: 512,
          tokenCount: 3,
          cursor: "c-abc",
        },
        { _meta: { progressToken: "tok_secret_looking_123" } },
      ),
    );
  });

  it("never touches the envelope, cursors or request state, even when asked", async () => {
    const redactor = await createRedactor({ rules: ["key:*", "regex:[a-z0-9@.+-]+"] });
    const response = {
      jsonrpc: "2.0",
      id: "req-1@example.com",
      result: { tools: [], nextCursor: "eyJwYWdlIjoyfQ==", requestState: "opaque+state" },
    };
    const out = redactor.message(response, "s2c") as { id: string; result: Record<string, Json> };
    assert.equal(out.id, "req-1@example.com");
    assert.equal(out.result.nextCursor, "eyJwYWdlIjoyfQ==");
    assert.equal(out.result.requestState, "opaque+state");
    assert.deepEqual(redactor.message({ jsonrpc: "2.0", method: "ping@example.com" }, "c2s"), {
      jsonrpc: "2.0",
      method: "ping@example.com",
    });
  });

  it("keeps JSON Schema properties named like credentials", async () => {
    const redactor = await createRedactor();
    const tools = {
      jsonrpc: "2.0",
      id: 1,
      result: {
        tools: [{
          name: "login",
          inputSchema: {
            type: "object",
            properties: { password: { type: "string" } },
            required: ["password"],
          },
        }],
      },
    };
    assert.equal(redactor.message(tools, "s2c"), tools);
  });

  it('keeps a key named "__proto__" while redacting beside it (outside Deno, assigning it sets the prototype)', async () => {
    const redactor = await createRedactor();
    const msg = JSON.parse(
      '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x","arguments":{"__proto__":{"token":"abc"},"api_key":"k"}}}',
    );
    const text = JSON.stringify(redactor.message(msg, "c2s"));
    assert.match(text, /"__proto__":\{"token":"\[REDACTED:[^"]+\]"\}/);
    assert.doesNotMatch(text, /"k"|"abc"/);
  });

  it("returns the same object when nothing changed, a copy otherwise", async () => {
    const redactor = await createRedactor();
    const clean = call({ city: "Paris" });
    assert.equal(redactor.message(clean, "c2s"), clean);
    const dirty = call({ token: "abc" });
    const out = redactor.message(dirty, "c2s");
    assert.notEqual(out, dirty);
    assert.deepEqual(dirty, call({ token: "abc" }), "input not mutated");
  });

  it("leaves base64 under data/blob alone, but scans other strings", async () => {
    const redactor = await createRedactor();
    const card = "4111111111111111";
    const blob = (card + "AAAA").repeat(4);
    const result: Json = {
      jsonrpc: "2.0",
      id: 2,
      result: {
        content: [{ type: "image", data: blob, mimeType: "image/png" }, {
          type: "text",
          text: blob,
        }],
      },
    };
    const out = redactor.message(result, "s2c") as {
      result: { content: { data?: string; text?: string }[] };
    };
    assert.equal(out.result.content[0].data, blob);
    assert.notEqual(out.result.content[1].text, blob);
    const png = {
      jsonrpc: "2.0",
      id: 3,
      result: { contents: [{ uri: "file:///a.png", blob: PNG }] },
    };
    assert.equal(redactor.message(png, "s2c"), png);
    const errorData = {
      jsonrpc: "2.0",
      id: 4,
      error: { code: -1, message: "x", data: "user bob@example.com" },
    };
    assert.deepEqual(redactor.message(errorData, "s2c"), {
      ...errorData,
      error: { ...errorData.error, data: "user [REDACTED:email]" },
    });
  });

  it("catches credentials inside JSON embedded in a string", async () => {
    const redactor = await createRedactor();
    const text = JSON.stringify({ user: "x", api_key: "k-123", maxTokens: 5 });
    const out = redactor.message({
      jsonrpc: "2.0",
      id: 1,
      result: { content: [{ type: "text", text }] },
    }, "s2c");
    assert.equal(
      (out as { result: { content: { text: string }[] } }).result.content[0].text,
      '{"user":"x","api_key":"[REDACTED:credential]","maxTokens":5}',
    );
  });

  it("applies pointers (with * steps) and key globs, but not to protocol keys", async () => {
    const redactor = await createRedactor({
      rules: ["/params/arguments/ssn", "/params/arguments/people/*/name", "key:*session*"],
    });
    const out = redactor.message(
      call({
        ssn: 123456789,
        people: [{ name: "Ann", age: 3 }, { name: "Bob" }],
        userSession: "s-1",
        sessionId: "keep",
      }),
      "c2s",
    );
    assert.deepEqual(
      out,
      call({
        ssn: "[REDACTED:pointer]",
        people: [{ name: "[REDACTED:pointer]", age: 3 }, { name: "[REDACTED:pointer]" }],
        userSession: "[REDACTED:key]",
        sessionId: "keep",
      }),
    );
  });

  it("rejects bad --redact rules with a usage error naming the rule", async () => {
    await assert.rejects(createRedactor({ rules: ["bogus"] }), /--redact bogus: a rule is/);
    await assert.rejects(
      createRedactor({ rules: ["regex:("] }),
      /--redact regex:\(: invalid regex/,
    );
    await assert.rejects(createRedactor({ rules: ["regex:a*"] }), /matches the empty string/);
    await assert.rejects(createRedactor({ rules: ["/id"] }), /protocol field "id"/);
    await assert.rejects(
      createRedactor({ rules: ["/params/_meta/progressToken"] }),
      /protocol field "progressToken"/,
    );
  });

  it("turns detectors off", async () => {
    const redactor = await createRedactor({ detectors: false });
    assert.equal(redactor.text("ann@example.org", "c2s"), "ann@example.org");
    assert.deepEqual(redactor.info().rules, ["keys:default"]);
  });
});

describe("idempotence and determinism", () => {
  it("redacting twice equals redacting once", async () => {
    const redactor = await createRedactor({
      rules: ["regex:[A-Z]{3}-\\d+", "/params/arguments/id"],
    });
    const input = call({
      password: "pw",
      id: 42,
      note: "ABC-123 ann@example.org 4111 1111 1111 1111 Bearer abcdef1234567890xyz",
    });
    const once = redactor.message(input, "c2s");
    assert.notDeepEqual(once, input);
    assert.equal(redactor.message(once, "c2s"), once);
    assert.equal(
      redactor.text(redactor.text("TOKEN=abc ann@example.org", "c2s"), "c2s"),
      redactor.text("TOKEN=abc ann@example.org", "c2s"),
    );
  });

  it("placeholders are recognised", () => {
    assert.equal(isPlaceholder("[REDACTED:email]"), true);
    assert.equal(isPlaceholder("[HASH:acct:0123abcd]"), true);
    assert.equal(isPlaceholder("[MASK:card:****1111]"), true);
    assert.equal(isPlaceholder("[REDACTED:email] x"), false);
  });
});

describe("headers and URLs", () => {
  it("drops credential headers and lists their names", async () => {
    const redactor = await createRedactor();
    const { headers, credentials } = redactor.headers({
      Authorization: "Bearer abc",
      "proxy-authorization": "Basic x",
      Cookie: "sid=1",
      "Set-Cookie": "sid=2",
      "X-API-Key": "k",
      "X-Auth-Token": "t",
      "Mcp-Session-Id": "1868a90c-aaaa",
      "Content-Type": "application/json",
      "X-Forwarded-For": "203.0.113.9",
    });
    assert.deepEqual(credentials.sort(), [
      "Authorization",
      "Cookie",
      "Set-Cookie",
      "X-API-Key",
      "X-Auth-Token",
      "proxy-authorization",
    ]);
    assert.deepEqual(headers, {
      "Mcp-Session-Id": "1868a90c-aaaa",
      "Content-Type": "application/json",
      "X-Forwarded-For": "[REDACTED:ipv4]",
    });
  });

  it("redacts query parameters by name and by value, idempotently", async () => {
    const redactor = await createRedactor();
    const url =
      "/mcp?api_key=abc&access_token=x%20y&page=2&cursor=abc&contact=ann%40example.org&maxTokens=3#top";
    const once = redactor.url(url);
    assert.equal(
      once,
      "/mcp?api_key=[REDACTED:credential]&access_token=[REDACTED:credential]&page=2&cursor=abc&contact=[REDACTED:email]&maxTokens=3#top",
    );
    assert.equal(redactor.url(once), once);
    assert.equal(redactor.url("/mcp"), "/mcp");
    assert.equal(redactor.url("https://host/sse?sessionId=abc"), "https://host/sse?sessionId=abc");
  });

  it("redacts credential flags in a server command line", async () => {
    const redactor = await createRedactor();
    assert.deepEqual(
      redactCommandLine(redactor, [
        "srv",
        "--api-key",
        "s3cr3t",
        "--token=abc",
        "--port",
        "80",
        "API_KEY=zz",
      ]),
      [
        "srv",
        "--api-key",
        "[REDACTED:credential]",
        "--token=[REDACTED:credential]",
        "--port",
        "80",
        "API_KEY=[REDACTED:credential]",
      ],
    );
  });
});

describe("findings", () => {
  it("names rule and pointer and never includes the secret", async () => {
    const redactor = await createRedactor();
    const secret = "correct-horse-battery-staple";
    const findings = redactor.findings(
      call({ "a/b": { password: secret }, mail: "x@example.com" }),
      "c2s",
    );
    assert.deepEqual(findings.map(({ rule, path }) => ({ rule, path })), [
      { rule: "keys:default", path: "/params/arguments/a~1b/password" },
      { rule: "detector:email", path: "/params/arguments/mail" },
    ]);
    for (const finding of findings) assert.ok(!finding.excerpt.includes(secret.slice(0, 6)));
    assert.deepEqual(redactor.findings(call({ city: "Paris" }), "c2s"), []);
    assert.deepEqual(redactor.findings("password=hunter2", "s2c").map((f) => f.rule), [
      "keys:default",
    ]);
  });
});

describe("replay", () => {
  it("a live request carrying the real secret redacts to what was recorded", async () => {
    const recorder = await createRedactor({
      rules: ["/params/arguments/account", "key:*session*"],
    });
    const recorded = recorder.message(
      call({ account: "ACME-1", userSession: "s", mail: "a@example.com" }),
      "c2s",
    );
    const replay = await createReplayRedactor(recorder.info());
    assert.deepEqual(
      replay.message(call({ account: "ACME-1", userSession: "s", mail: "a@example.com" }), "c2s"),
      recorded,
    );
    assert.deepEqual(replay.message(recorded, "c2s"), recorded);
  });

  it("a cassette without redaction info replays with only the key rule", async () => {
    const replay = await createReplayRedactor(undefined);
    assert.deepEqual(replay.info(), { rules: ["keys:default"] });
  });

  it("refuses unknown rule ids", async () => {
    await assert.rejects(
      createReplayRedactor({ rules: ["future:thing"] }),
      /does not know: "future:thing"/,
    );
  });
});
