/**
 * `record --secret-env` keeps the value out of every byte of the cassette,
 * its header included: the recorded server URL (path and query) over HTTP.
 * The live server is one of ours with no SDK over Streamable HTTP that
 * refuses a request without `Authorization: Bearer $STAMP_TOKEN` and echoes
 * $STAMP_VALUE; the client is the official SDK's, through `record --url`.
 * Over stdio, the claim file a recording keeps beside the cassette names
 * the server as the header does.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { Client, StdioClientTransport, StreamableHTTPClientTransport } from "../sdk.ts";
import { CLI, NODE, ROOT, tempDir } from "../helpers.ts";
import { freePort, startBackground, URL_LINE } from "../http/http_helpers.ts";

const SERVER = path.join(ROOT, "tests/fixtures/upkeep/bearer_http_server.mjs");
const SECRET = "tok-header-7a6b5c4d3e2f";

test("record --url --secret-env: the value is in no byte of the cassette, the header's URL included", async () => {
  const port = await freePort();
  const env = { PORT: String(port), STAMP_TOKEN: SECRET, STAMP_VALUE: SECRET };
  const server = await startBackground([NODE, SERVER], /listening on port (\d+)/, { env });
  const cassette = path.join(tempDir(), "bearer.cassette.jsonl");
  // The secret is a path segment and a query value of the upstream URL.
  const upstream = `http://127.0.0.1:${port}/mcp/${SECRET}?key=${SECRET}`;
  const recorder = await startBackground(
    [...CLI, "record", "-o", cassette, "--secret-env", "STAMP_SECRET", "--url", upstream],
    URL_LINE,
    { env: { STAMP_SECRET: SECRET } },
  );
  try {
    const client = new Client({ name: "secret-header-test", version: "1.0.0" });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(recorder.found), {
        requestInit: { headers: { authorization: `Bearer ${SECRET}` } },
      }),
    );
    const result = await client.callTool({ name: "stamp", arguments: { label: "h" } });
    assert.match(
      JSON.stringify(result.content),
      new RegExp(SECRET),
      "the live server saw the token",
    );
    await client.close();
  } finally {
    await recorder.stop();
    await server.stop();
  }
  const bytes = readFileSync(cassette, "utf8");
  assert.ok(!bytes.includes(SECRET), "the secret is nowhere in the cassette:\n" + bytes);
  assert.ok(!bytes.includes(encodeURIComponent(SECRET)));
  const header = JSON.parse(bytes.split("\n")[0]);
  assert.equal(
    header.server.url,
    `http://127.0.0.1:${port}/mcp/[SECRET:STAMP_SECRET]?key=[SECRET:STAMP_SECRET]`,
  );
  assert.deepEqual(header.redaction.secretEnv, ["STAMP_SECRET"]);
});

test("record --secret-env over stdio: the header's command line and the claim file hold the placeholder, whole", async () => {
  const cassette = path.join(tempDir(), "claimed.cassette.jsonl");
  const stdioServer = [NODE, path.join(ROOT, "tests/fixtures/upkeep/nonce_server.mjs"), SECRET];
  const record = [...CLI, "record", "-o", cassette, "--secret-env", "STAMP_SECRET", "--"];
  const client = new Client({ name: "secret-claim-test", version: "1.0.0" });
  await client.connect(
    new StdioClientTransport({
      command: record[0],
      args: [...record.slice(1), ...stdioServer],
      env: { ...process.env as Record<string, string>, STAMP_SECRET: SECRET },
      stderr: "ignore",
    }),
  );
  let claim: string;
  try {
    await client.listTools();
    // Held while the recording runs.
    assert.ok(existsSync(`${cassette}.claim`), "the recording holds its claim");
    claim = readFileSync(`${cassette}.claim`, "utf8");
  } finally {
    await client.close();
  }
  assert.ok(!claim.includes(SECRET), "the claim holds no secret: " + claim);
  assert.match(claim, /\[SECRET:STAMP_SECRET\]/);
  const bytes = readFileSync(cassette, "utf8");
  assert.ok(!bytes.includes(SECRET));
  // The placeholder whole: no other rule reads "SECRET:NAME" as a credential.
  assert.equal(JSON.parse(bytes.split("\n")[0]).server.command.at(-1), "[SECRET:STAMP_SECRET]");
});
