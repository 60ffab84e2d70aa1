/**
 * The helpers' `secretEnv` option (`startCassette`, which the test helpers
 * under src/testing/ call): a recording made through it holds
 * `[SECRET:NAME]`, and its replays, over stdio and in the helpers'
 * in-process HTTP form, match requests that carry the current value, after
 * the secret rotated too. The live server is one of ours with no SDK that
 * refuses a `stamp` call whose `badge` is not $STAMP_TOKEN and echoes
 * $STAMP_VALUE; the clients are the official SDK's.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { startCassette } from "../../mod.ts";
import { Client, StdioClientTransport, StreamableHTTPClientTransport } from "../sdk.ts";
import { NODE, ROOT, tempDir } from "../helpers.ts";

const SERVER = [NODE, path.join(ROOT, "tests/fixtures/upkeep/nonce_server.mjs")];
const SECRET = "tok-helper-1f2e3d4c5b6a";
const ROTATED = "tok-helper-rotated-000042";

/** Runs `body` with the secret variables set to `value` in this process (the helpers read them here). */
async function withSecret<T>(value: string, body: () => Promise<T>): Promise<T> {
  const names = ["STAMP_SECRET", "STAMP_TOKEN", "STAMP_VALUE"];
  const saved = names.map((name) => process.env[name]);
  for (const name of names) process.env[name] = value;
  try {
    return await body();
  } finally {
    names.forEach((name, i) => {
      if (saved[i] === undefined) delete process.env[name];
      else process.env[name] = saved[i];
    });
  }
}

/** Calls `stamp` with `badge` through a connected client; the answer's text. */
async function stamp(client: Client, badge: string): Promise<string> {
  const result = await client.callTool({ name: "stamp", arguments: { label: "a", badge } });
  return (result.content as { text: string }[])[0].text;
}

test("the helpers' secretEnv: the recording holds the placeholder, and both replays match the current value", async () => {
  const cassette = path.join(tempDir(), "helper.cassette.jsonl");
  await withSecret(SECRET, async () => {
    const recording = await startCassette({
      path: cassette,
      mode: "all",
      server: SERVER,
      secretEnv: ["STAMP_SECRET"],
    });
    const client = new Client({ name: "secret-helper-test", version: "1.0.0" });
    await client.connect(
      new StdioClientTransport({
        command: recording.command,
        args: recording.args,
        env: process.env as Record<string, string>,
      }),
    );
    assert.match(await stamp(client, SECRET), new RegExp(`"value":"${SECRET}"`), "accepted live");
    await client.close();
    await recording.finish();
  });
  const bytes = readFileSync(cassette, "utf8");
  assert.ok(!bytes.includes(SECRET), "the secret is nowhere in the cassette");
  const header = JSON.parse(bytes.split("\n")[0]);
  assert.deepEqual(header.redaction.secretEnv, ["STAMP_SECRET"]);
  assert.match(bytes, /"badge":"\[SECRET:STAMP_SECRET\]"/);

  // The token rotated: the client now sends the new value, and still matches.
  await withSecret(ROTATED, async () => {
    const stdio = await startCassette({ path: cassette, mode: "none", server: SERVER });
    const client = new Client({ name: "secret-helper-test", version: "1.0.0" });
    await client.connect(
      new StdioClientTransport({
        command: stdio.command,
        args: stdio.args,
        env: process.env as Record<string, string>,
      }),
    );
    assert.match(await stamp(client, ROTATED), /"value":"\[SECRET:STAMP_SECRET\]"/);
    await client.close();
    const replayed = await stdio.finish();
    assert.deepEqual(replayed.misses, []);

    const http = await startCassette({ path: cassette, mode: "none", transport: "http" });
    const httpClient = new Client({ name: "secret-helper-test", version: "1.0.0" });
    await httpClient.connect(new StreamableHTTPClientTransport(new URL(http.url!)));
    try {
      assert.match(await stamp(httpClient, ROTATED), /"value":"\[SECRET:STAMP_SECRET\]"/);
    } finally {
      await httpClient.close();
    }
    const served = await http.finish();
    assert.deepEqual(served.misses, []);
  });
});
