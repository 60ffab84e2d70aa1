/**
 * Secrets from the environment (`record --secret-env NAME`): a server of
 * ours with no SDK that checks a token taken from its environment and
 * echoes a value set by it, recorded and replayed through the official SDK
 * client; the secret never reaches the cassette, replay matches requests
 * carrying the current value, and what new episodes append is scrubbed too.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { startCassette, UsageError } from "../../mod.ts";
import { Client, StdioClientTransport } from "../sdk.ts";
import { CLI, run, tempDir } from "../helpers.ts";
import { recordWithSecret, STAMP_SERVER, stampEnv } from "./stamp_server.ts";

const SERVER = STAMP_SERVER;
const envWith = stampEnv;
const SECRET = "tok-9f8e7d6c5b4a3921";

/** Calls `stamp` with the token once per label; the answers' texts (or error messages). */
async function stamps(command: string[], labels: string[], token: string): Promise<string[]> {
  const client = new Client({ name: "secret-test", version: "1.0.0" });
  const transport = new StdioClientTransport({
    command: command[0],
    args: command.slice(1),
    env: envWith(token),
    stderr: "ignore",
  });
  await client.connect(transport);
  const texts: string[] = [];
  try {
    for (const label of labels) {
      try {
        const result = await client.callTool({ name: "stamp", arguments: { label, badge: token } });
        texts.push((result.content as { text: string }[])[0].text);
      } catch (error) {
        texts.push(`error: ${(error as Error).message}`);
      }
    }
  } finally {
    await client.close();
  }
  return texts;
}

async function recorded(): Promise<string> {
  const cassette = path.join(tempDir(), "secret.cassette.jsonl");
  const record = recordWithSecret(cassette);
  const [answer] = await stamps(record, ["a"], SECRET);
  assert.match(answer, new RegExp(`"value":"${SECRET}"`), "the live server accepted the token");
  return cassette;
}

test("record --secret-env: the value never reaches the cassette; a placeholder stands in both ways", async () => {
  const cassette = await recorded();
  const text = readFileSync(cassette, "utf8");
  assert.ok(!text.includes(SECRET), "the secret is not on disk");
  const header = JSON.parse(text.split("\n")[0]);
  assert.deepEqual(header.redaction.secretEnv, ["STAMP_SECRET"]);
  const messages = text.trim().split("\n").slice(1).map((line) => JSON.parse(line))
    .filter((entry) =>
      entry.type === "message" && entry.msg?.params?.name === "stamp" || entry.msg?.result?.content
    );
  const call = messages.find((entry) => entry.dir === "c2s");
  assert.equal(call.msg.params.arguments.badge, "[SECRET:STAMP_SECRET]");
  const answer = messages.find((entry) => entry.dir === "s2c" && entry.msg.result?.content);
  assert.match(answer.msg.result.content[0].text, /"value":"\[SECRET:STAMP_SECRET\]"/);
});

test("replay matches a live request carrying the current value, also after the secret rotated", async () => {
  const cassette = await recorded();
  const [same] = await stamps([...CLI, "replay", cassette], ["a"], SECRET);
  assert.match(same, /\[SECRET:STAMP_SECRET\]/);
  const [rotated] = await stamps([...CLI, "replay", cassette], ["a"], "tok-rotated-0000000042");
  assert.match(rotated, /\[SECRET:STAMP_SECRET\]/, rotated);
});

test("--new-episodes appends what the live server said scrubbed of the secret", async () => {
  const cassette = await recorded();
  const appending = [...CLI, "replay", cassette, "--new-episodes", "--", ...SERVER];
  const [, live] = await stamps(appending, ["a", "b"], SECRET);
  assert.match(live, new RegExp(`"label":"b".*"value":"${SECRET}"`), "a real answer, real token");
  const text = readFileSync(cassette, "utf8");
  assert.ok(!text.includes(SECRET), "nothing appended holds the secret");
  assert.match(text, /"appended":true/);
});

test("a secret name that is not set stops with one line, exit 2, and writes nothing", async () => {
  const folder = tempDir();
  const cassette = path.join(folder, "none.cassette.jsonl");
  const env = { MCP_CASSETTE_NO_SUCH_SECRET: undefined };
  const cli = await run([
    ...CLI,
    "record",
    "-o",
    cassette,
    "--secret-env",
    "MCP_CASSETTE_NO_SUCH_SECRET",
    "--",
    ...SERVER,
  ], { env });
  assert.equal(cli.code, 2, cli.stderr);
  assert.equal(cli.stderr.trim().split("\n").length, 1, cli.stderr);
  assert.match(cli.stderr, /MCP_CASSETTE_NO_SUCH_SECRET is not set/);
  assert.equal(existsSync(cassette), false);
  await assert.rejects(
    startCassette({
      path: cassette,
      mode: "all",
      server: SERVER,
      secretEnv: ["MCP_CASSETTE_NO_SUCH_SECRET"],
    }),
    (error: unknown) => error instanceof UsageError && /is not set/.test(error.message),
  );
  const recordedCassette = await recorded();
  const before = readFileSync(recordedCassette, "utf8");
  const unset = await run(
    [...CLI, "replay", recordedCassette, "--new-episodes", "--", ...SERVER],
    { env: { STAMP_SECRET: undefined } },
  );
  assert.equal(unset.code, 2, unset.stderr);
  assert.match(unset.stderr, /STAMP_SECRET is not set/);
  assert.equal(readFileSync(recordedCassette, "utf8"), before);
});

test("verify puts the real value back into what it re-sends, and compares with it hidden again", async () => {
  const cassette = await recorded();
  const before = readFileSync(cassette, "utf8");
  const verify = [
    ...CLI,
    "verify",
    cassette,
    "--ignore-path",
    "result.content[].text.nonce",
    "--",
    ...SERVER,
  ];
  const passed = await run(verify, { env: envWith(SECRET) });
  assert.equal(passed.code, 0, passed.stdout + passed.stderr);
  assert.match(passed.stdout, /2 passed, 0 failed/, passed.stdout);
  // The server refuses anything but the real value: a wrong one is a regression.
  const refused = await run(verify, {
    env: { ...envWith(SECRET), STAMP_TOKEN: "tok-something-else-0000" },
  });
  assert.match(refused.stdout, /FAIL #2 tools\/call stamp/, refused.stdout + refused.stderr);
  assert.match(refused.stdout, /result\.isError: key added/);
  const unset = await run(verify, { env: { STAMP_SECRET: undefined } });
  assert.equal(unset.code, 2, unset.stderr);
  assert.match(unset.stderr, /STAMP_SECRET is not set/);
  assert.equal(readFileSync(cassette, "utf8"), before);
});
