/**
 * Secrets in a scripted recording: `record --script` drives a server of
 * ours with no SDK that refuses a `stamp` call whose `badge` is not
 * $STAMP_TOKEN and echoes $STAMP_VALUE. The playbook holds
 * `[SECRET:STAMP_SECRET]`; the server must get the real value from the
 * environment, and the cassette (header included) must not hold it.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { CLI, NODE, ROOT, run, tempDir } from "../helpers.ts";

const SERVER = [NODE, path.join(ROOT, "tests/fixtures/upkeep/nonce_server.mjs")];
const SECRET = "tok-script-5e4d3c2b1a09";

/** The environment of a run whose secret is `value`: the server checks and echoes it. */
function envWith(value: string | undefined): Record<string, string | undefined> {
  return { STAMP_SECRET: value, STAMP_TOKEN: SECRET, STAMP_VALUE: SECRET };
}

/** A playbook that calls `stamp` with the secret's placeholder as its badge. */
function playbook(folder: string): string {
  const file = path.join(folder, "stamp.playbook.jsonc");
  writeFileSync(
    file,
    JSON.stringify({
      steps: [
        { list: "tools" },
        { call: "stamp", arguments: { label: "a", badge: "[SECRET:STAMP_SECRET]" } },
      ],
    }),
  );
  return file;
}

test("record --script puts the real value back into what it sends, and records the placeholder", async () => {
  const folder = tempDir();
  const cassette = path.join(folder, "scripted.cassette.jsonl");
  // The secret is in the server's command line too: the header must not show it.
  const command = [...SERVER, SECRET];
  const recorded = await run(
    [...CLI, "record", "--script", playbook(folder), "-o", cassette, "--", ...command],
    { env: envWith(SECRET) },
  );
  // The server refuses a wrong badge with isError, which fails the step (exit 1).
  assert.equal(recorded.code, 0, recorded.stderr);
  assert.match(recorded.stderr, /step 2 call stamp: ok/);
  const bytes = readFileSync(cassette, "utf8");
  assert.ok(!bytes.includes(SECRET), "the secret is nowhere in the cassette:\n" + bytes);
  const [header, ...entries] = bytes.trim().split("\n").map((line) => JSON.parse(line));
  assert.deepEqual(header.redaction.secretEnv, ["STAMP_SECRET"]);
  assert.equal(header.server.command.at(-1), "[SECRET:STAMP_SECRET]");
  const call = entries.find((entry) => entry.msg?.params?.name === "stamp");
  assert.equal(call.msg.params.arguments.badge, "[SECRET:STAMP_SECRET]");
  const answer = entries.find((entry) => entry.dir === "s2c" && entry.msg?.result?.content);
  assert.match(answer.msg.result.content[0].text, /"value":"\[SECRET:STAMP_SECRET\]"/);
});

test("record --script --secret-env scrubs what the server says of the value", async () => {
  const folder = tempDir();
  const cassette = path.join(folder, "flagged.cassette.jsonl");
  const plain = path.join(folder, "plain.playbook.jsonc");
  writeFileSync(plain, JSON.stringify({ steps: [{ call: "stamp", arguments: { label: "b" } }] }));
  const recorded = await run(
    [
      ...CLI,
      "record",
      "--script",
      plain,
      "--secret-env",
      "STAMP_VALUE",
      "-o",
      cassette,
      "--",
      ...SERVER,
    ],
    { env: { STAMP_VALUE: SECRET, STAMP_TOKEN: undefined } },
  );
  assert.equal(recorded.code, 0, recorded.stderr);
  const bytes = readFileSync(cassette, "utf8");
  assert.ok(!bytes.includes(SECRET), "the echoed value is not on disk");
  assert.match(bytes, /\[SECRET:STAMP_VALUE\]/);
});

test("record --script with a secret name that is not set: one line naming it, exit 2, nothing written", async () => {
  const folder = tempDir();
  const cassette = path.join(folder, "unset.cassette.jsonl");
  const fromPlaybook = await run(
    [...CLI, "record", "--script", playbook(folder), "-o", cassette, "--", ...SERVER],
    { env: envWith(undefined) },
  );
  assert.equal(fromPlaybook.code, 2, fromPlaybook.stderr);
  assert.equal(fromPlaybook.stderr.trim().split("\n").length, 1, fromPlaybook.stderr);
  assert.match(
    fromPlaybook.stderr,
    /stamp\.playbook\.jsonc holds \[SECRET:STAMP_SECRET\]: the environment variable STAMP_SECRET is not set/,
  );
  const fromFlag = await run(
    [
      ...CLI,
      "record",
      "--script",
      playbook(folder),
      "--secret-env",
      "MCP_CASSETTE_NO_SUCH_SECRET",
      "-o",
      cassette,
      "--",
      ...SERVER,
    ],
    { env: { ...envWith(SECRET), MCP_CASSETTE_NO_SUCH_SECRET: undefined } },
  );
  assert.equal(fromFlag.code, 2, fromFlag.stderr);
  assert.equal(fromFlag.stderr.trim().split("\n").length, 1, fromFlag.stderr);
  assert.match(fromFlag.stderr, /--secret-env MCP_CASSETTE_NO_SUCH_SECRET: .* is not set/);
  assert.equal(existsSync(cassette), false);
});

test("check --script sends a playbook's [SECRET:NAME] as the value too; unset, one line and exit 2", async () => {
  const folder = tempDir();
  const checked = await run([...CLI, "check", "--script", playbook(folder), "--", ...SERVER], {
    env: envWith(SECRET),
  });
  // The server answers a wrong badge with isError: a failed step, exit 1.
  assert.equal(checked.code, 0, checked.stdout + checked.stderr);
  assert.ok(!(checked.stdout + checked.stderr).includes(SECRET), "the value is not printed");
  const unset = await run([...CLI, "check", "--script", playbook(folder), "--", ...SERVER], {
    env: envWith(undefined),
  });
  assert.equal(unset.code, 2, unset.stdout + unset.stderr);
  assert.equal(unset.stderr.trim().split("\n").length, 1, unset.stderr);
  assert.match(
    unset.stderr,
    /holds \[SECRET:STAMP_SECRET\]: the environment variable STAMP_SECRET is not set/,
  );
});
