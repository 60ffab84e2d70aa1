/**
 * `verify --update` of a cassette recorded with `--secret-env`: the fresh
 * cassette it writes keeps the secret out of every byte, its header's
 * server command line included, and still lists the name, so its replay
 * matches a request carrying the current value. A server of ours with no
 * SDK that refuses a `stamp` call whose `badge` is not $STAMP_TOKEN and
 * echoes $STAMP_VALUE; the client is the official SDK's.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { Client, StdioClientTransport } from "../sdk.ts";
import { CLI, run, tempDir } from "../helpers.ts";
import { recordWithSecret, STAMP_SERVER, stampEnv } from "./stamp_server.ts";

const SERVER = STAMP_SERVER;
const envWith = stampEnv;
const SECRET = "tok-update-0a1b2c3d4e5f";

/** Calls `stamp` with `badge` through `command`; the answer's text. */
async function stamp(command: string[], badge: string): Promise<string> {
  const client = new Client({ name: "secret-update-test", version: "1.0.0" });
  await client.connect(
    new StdioClientTransport({
      command: command[0],
      args: command.slice(1),
      env: envWith(badge),
      stderr: "ignore",
    }),
  );
  try {
    const result = await client.callTool({ name: "stamp", arguments: { label: "u", badge } });
    return (result.content as { text: string }[])[0].text;
  } finally {
    await client.close();
  }
}

test("verify --update writes no secret into the fresh cassette's header, and keeps its name", async () => {
  const cassette = path.join(tempDir(), "update.cassette.jsonl");
  // The secret is also an argument of the server's command line.
  const server = [...SERVER, SECRET];
  const record = recordWithSecret(cassette, server);
  assert.match(await stamp(record, SECRET), new RegExp(`"value":"${SECRET}"`));
  assert.ok(!readFileSync(cassette, "utf8").includes(SECRET), "the recording holds no secret");

  const updated = await run(
    [
      ...CLI,
      "verify",
      cassette,
      "--update",
      "--ignore-path",
      "result.content[].text.nonce",
      "--",
      ...server,
    ],
    { env: envWith(SECRET) },
  );
  assert.equal(updated.code, 0, updated.stdout + updated.stderr);
  const bytes = readFileSync(cassette, "utf8");
  assert.ok(!bytes.includes(SECRET), "the updated cassette holds no secret:\n" + bytes);
  const header = JSON.parse(bytes.split("\n")[0]);
  assert.equal(header.server.command.at(-1), "[SECRET:STAMP_SECRET]");
  assert.deepEqual(header.redaction?.secretEnv, ["STAMP_SECRET"]);
  // A rotated token still matches the updated cassette's placeholder.
  const rotated = await stamp([...CLI, "replay", cassette], "tok-rotated-update-000001");
  assert.match(rotated, /"value":"\[SECRET:STAMP_SECRET\]"/);
});
