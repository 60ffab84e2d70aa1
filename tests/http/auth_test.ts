/**
 * Auth passes through the recorder: an OAuth-protected upstream's 401 and
 * its `WWW-Authenticate` reach the client naming the proxy; the
 * protected-resource metadata fetched through the proxy names the proxy's
 * URL, so the SDK's own discovery and resource check accept it; a session
 * with a bearer token works through the proxy; and the cassette names the
 * Authorization header without ever holding the token.
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
const AUTH_SERVER = [
  DENO,
  "run",
  "-A",
  "--no-check",
  path.join(ROOT, "tests/fixtures/http/auth_server.ts"),
];

test("record --url passes OAuth through: 401 and metadata name the proxy, a bearer session works, the token is never written", async () => {
  const upstream = await startBackground(AUTH_SERVER, /listening on port (\d+)/);
  const upstreamOrigin = `http://127.0.0.1:${upstream.found}`;
  const cassette = path.join(tempDir(), "auth.cassette.jsonl");
  const recorder = await startHttpRecorder(`${upstreamOrigin}/mcp`, cassette);
  try {
    const proxyUrl = new URL(recorder.found);
    assert.equal(proxyUrl.pathname, "/mcp");

    // Unauthenticated: the challenge reaches the client, rewritten to the proxy's origin.
    const initialize = {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: {
        protocolVersion: "2025-06-18",
        capabilities: {},
        clientInfo: { name: "auth-test", version: "1" },
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
      `Bearer resource_metadata="${proxyUrl.origin}/.well-known/oauth-protected-resource/mcp"`,
    );
    const { resourceMetadataUrl } = extractWWWAuthenticateParams(refused);
    await refused.body?.cancel();
    assert.equal(resourceMetadataUrl?.origin, proxyUrl.origin);

    // The SDK's own discovery: the metadata's resource must match the URL the client connects to.
    const info = await discoverOAuthServerInfo(proxyUrl, { resourceMetadataUrl });
    assert.equal(info.resourceMetadata?.resource, proxyUrl.href);
    assert.deepEqual(info.resourceMetadata?.authorization_servers, [upstreamOrigin]);
    assert.equal(info.authorizationServerMetadata?.issuer, upstreamOrigin);
    const resource = await selectResourceURL(proxyUrl, {} as never, info.resourceMetadata);
    assert.equal(resource?.href, proxyUrl.href);
    // Authorization-server metadata also passes through the proxy untouched.
    const asMeta = await fetch(new URL("/.well-known/oauth-authorization-server", proxyUrl));
    assert.equal(asMeta.status, 200);
    assert.equal((await asMeta.json()).token_endpoint, `${upstreamOrigin}/token`);

    // Authorized: a whole SDK session through the proxy.
    const client = new Client({ name: "auth-test", version: "1.0.0" });
    await client.connect(
      new StreamableHTTPClientTransport(proxyUrl, {
        requestInit: { headers: { authorization: `Bearer ${TOKEN}` } },
      }),
    );
    assert.equal(client.getServerVersion()?.name, "auth-fixture");
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
  assert.ok(
    lines.some((entry) => entry.type === "http-response" && entry.status === 401),
    "the 401 is recorded",
  );
});
