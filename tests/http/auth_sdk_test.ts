/**
 * The happy-path twin of auth_test.ts against an upstream built from the
 * official SDK v1's own auth parts (tests/fixtures/http/sdk_auth_server.ts:
 * express, `mcpAuthMetadataRouter`, `requireBearerAuth`, `McpServer` over
 * `StreamableHTTPServerTransport`), so the pass-through is checked against
 * what real servers send and not only against our own reading of the specs.
 * The same checks: the 401 and its `WWW-Authenticate` reach the client
 * naming the proxy; the protected-resource metadata fetched through the
 * proxy names the proxy's URL, so the SDK client's discovery and resource
 * check accept it; a bearer-token session works through the proxy; and the
 * cassette names the Authorization header without ever holding the token.
 *
 * Where the SDK server answers differently from the hand-rolled one, the
 * expectations follow it: its challenge carries `error` and
 * `error_description` before `resource_metadata`, its metadata carries
 * `resource_name`, its answers come as SSE events, and the client opens the
 * session's GET stream (the hand-rolled server refuses GET). One check is
 * added: a wrong token is refused by the SDK's verifier through the proxy.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { Client } from "../sdk.ts";
import { StreamableHTTPClientTransport } from "../sdk.ts";
import {
  discoverOAuthServerInfo,
  extractWWWAuthenticateParams,
  selectResourceURL,
} from "../sdk.ts";
import { DENO, ROOT, tempDir } from "../helpers.ts";
import { cassetteLines, startBackground, startHttpRecorder } from "./http_helpers.ts";

const TOKEN = "t0ken-secret";
const SDK_AUTH_SERVER = [
  DENO,
  "run",
  "-A",
  "--no-check",
  path.join(ROOT, "tests/fixtures/http/sdk_auth_server.ts"),
];

test("record --url passes an SDK server's OAuth through: 401 and metadata name the proxy, a bearer session works, the token is never written", async () => {
  const upstream = await startBackground(SDK_AUTH_SERVER, /listening on port (\d+)/);
  const upstreamOrigin = `http://127.0.0.1:${upstream.found}`;
  const cassette = path.join(tempDir(), "auth-sdk.cassette.jsonl");
  const recorder = await startHttpRecorder(`${upstreamOrigin}/mcp`, cassette);
  try {
    const proxyUrl = new URL(recorder.found);
    assert.equal(proxyUrl.pathname, "/mcp");

    // Unauthenticated: the SDK's challenge reaches the client, rewritten to the proxy's origin.
    const initialize = {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: {
        protocolVersion: "2025-06-18",
        capabilities: {},
        clientInfo: { name: "auth-sdk-test", version: "1" },
      },
    };
    const refused = await fetch(proxyUrl, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
      },
      body: JSON.stringify(initialize),
    });
    assert.equal(refused.status, 401);
    assert.equal(
      refused.headers.get("www-authenticate"),
      `Bearer error="invalid_token", error_description="Missing Authorization header", ` +
        `resource_metadata="${proxyUrl.origin}/.well-known/oauth-protected-resource/mcp"`,
    );
    const { resourceMetadataUrl, error } = extractWWWAuthenticateParams(refused);
    assert.equal(error, "invalid_token");
    assert.equal(resourceMetadataUrl?.origin, proxyUrl.origin);
    assert.deepEqual(await refused.json(), {
      error: "invalid_token",
      error_description: "Missing Authorization header",
    });

    // The SDK's own discovery: the metadata's resource must match the URL the client connects to.
    const info = await discoverOAuthServerInfo(proxyUrl, { resourceMetadataUrl });
    assert.equal(info.resourceMetadata?.resource, proxyUrl.href);
    assert.deepEqual(info.resourceMetadata?.authorization_servers, [upstreamOrigin]);
    assert.equal(info.resourceMetadata?.resource_name, "sdk-auth-fixture");
    assert.equal(info.authorizationServerMetadata?.issuer, upstreamOrigin);
    const resource = await selectResourceURL(proxyUrl, {} as never, info.resourceMetadata);
    assert.equal(resource?.href, proxyUrl.href);
    // Authorization-server metadata also passes through the proxy untouched.
    const asMeta = await fetch(new URL("/.well-known/oauth-authorization-server", proxyUrl));
    assert.equal(asMeta.status, 200);
    assert.equal((await asMeta.json()).token_endpoint, `${upstreamOrigin}/token`);

    // A wrong token is refused by the SDK's verifier, through the proxy, naming the proxy too.
    const wrong = await fetch(proxyUrl, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        authorization: "Bearer not-the-token",
      },
      body: JSON.stringify(initialize),
    });
    assert.equal(wrong.status, 401);
    assert.equal(
      extractWWWAuthenticateParams(wrong).resourceMetadataUrl?.origin,
      proxyUrl.origin,
    );
    await wrong.body?.cancel();

    // Authorized: a whole SDK session through the proxy.
    const client = new Client({ name: "auth-sdk-test", version: "1.0.0" });
    await client.connect(
      new StreamableHTTPClientTransport(proxyUrl, {
        requestInit: { headers: { authorization: `Bearer ${TOKEN}` } },
      }),
    );
    assert.equal(client.getServerVersion()?.name, "sdk-auth-fixture");
    const tools = await client.listTools();
    assert.deepEqual(tools.tools.map((tool) => tool.name), ["echo"]);
    const echoed = await client.callTool({ name: "echo", arguments: { message: "hi" } });
    assert.deepEqual(echoed.content, [{ type: "text", text: "Echo: hi" }]);
    await client.close();
  } finally {
    assert.equal(await recorder.stop(), 0, recorder.output());
    await upstream.stop();
  }

  const text = readFileSync(cassette, "utf8");
  assert.ok(!text.includes(TOKEN), "the token is not in the cassette");
  assert.ok(!text.includes("not-the-token"), "nor the refused one");
  const lines = cassetteLines(text);
  assert.equal(lines[0].era, "legacy");
  const authorized = lines.filter((entry) =>
    entry.type === "http-request" &&
    ((entry.credentials as string[] | undefined) ?? []).includes("authorization")
  );
  assert.ok(
    authorized.length >= 4,
    `every authorized request names its credential (${authorized.length})`,
  );
  for (const entry of lines.filter((entry) => entry.type === "http-request")) {
    assert.ok(
      !("authorization" in (entry.headers as Record<string, string>)),
      "no Authorization value is kept",
    );
  }
  assert.equal(
    lines.filter((entry) => entry.type === "http-response" && entry.status === 401).length,
    2,
    "both 401s are recorded: no token, and the wrong one",
  );
  // The SDK server answers over SSE and the client opens its GET stream: both authorized, both kept.
  assert.ok(
    lines.some((entry) =>
      entry.type === "http-request" && entry.method === "GET" && entry.path === "/mcp" &&
      ((entry.credentials as string[] | undefined) ?? []).includes("authorization")
    ),
    "the session's GET stream names its credential",
  );
  assert.ok(
    lines.some((entry) =>
      entry.type === "message" && entry.dir === "s2c" && entry.sse !== undefined &&
      JSON.stringify(entry.msg).includes("Echo: hi")
    ),
    "the echo result is recorded from its SSE event",
  );
});
