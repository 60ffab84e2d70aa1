/**
 * A miss says how to fix it: when a request differs from its closest
 * recording only in values that look volatile, the miss message ends with
 * the exact `--match-ignore` flags, and `--learn-ignores` writes them into
 * mcp-cassette.toml. Recorded from a server of ours with no SDK, through the
 * official SDK client.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { ReplayMissError, startCassette } from "../../mod.ts";
import { Client, StdioClientTransport } from "../sdk.ts";
import { CLI, NODE, ROOT, tempDir } from "../helpers.ts";

const SERVER = [NODE, path.join(ROOT, "tests/fixtures/upkeep/nonce_server.mjs")];

interface Stamp {
  text?: string;
  error?: string;
}

/** Connects the SDK client to `command` (in `cwd`) and calls `stamp` with each arguments object. */
async function stamps(
  command: string[],
  calls: Record<string, unknown>[],
  cwd?: string,
): Promise<Stamp[]> {
  const client = new Client({ name: "hint-test", version: "1.0.0" });
  const transport = new StdioClientTransport({
    command: command[0],
    args: command.slice(1),
    cwd,
    stderr: "ignore",
  });
  await client.connect(transport);
  const out: Stamp[] = [];
  try {
    for (const args of calls) {
      try {
        const result = await client.callTool({ name: "stamp", arguments: args });
        out.push({ text: (result.content as { text: string }[])[0].text });
      } catch (error) {
        out.push({ error: (error as Error).message });
      }
    }
  } finally {
    await client.close();
  }
  return out;
}

async function recorded(calls: Record<string, unknown>[]): Promise<string> {
  const cassette = path.join(tempDir(), "stamp.cassette.jsonl");
  const server = await startCassette({ path: cassette, mode: "all", server: SERVER });
  await stamps([server.command, ...server.args], calls);
  await server.finish();
  return cassette;
}

test("a miss that differs only in a UUID and an epoch ends with the exact --match-ignore flags", async () => {
  const cassette = await recorded([{
    label: "a",
    request_id: randomUUID(),
    sent_at: 1764662400123,
  }]);
  const server = await startCassette({ path: cassette, mode: "none" });
  const [answer] = await stamps([server.command, ...server.args], [
    { label: "a", request_id: randomUUID(), sent_at: 1764662461999 },
  ]);
  assert.match(
    answer.error ?? "",
    / add --match-ignore params\.arguments\.request_id --match-ignore params\.arguments\.sent_at$/,
  );
  await assert.rejects(server.finish(), (error: unknown) => {
    assert.ok(error instanceof ReplayMissError);
    assert.deepEqual(error.misses[0].ignore, [
      "params.arguments.request_id",
      "params.arguments.sent_at",
    ]);
    return true;
  });
});

test("a miss in an ordinary value, or in a volatile one beside an ordinary one, gets no such hint", async () => {
  const id = randomUUID();
  const cassette = await recorded([{ label: "a", request_id: id }]);
  const server = await startCassette({ path: cassette, mode: "none" });
  const answers = await stamps([server.command, ...server.args], [
    { label: "b", request_id: id },
    { label: "c", request_id: randomUUID() },
  ]);
  for (const answer of answers) {
    assert.match(answer.error ?? "", /No recorded answer/);
    assert.doesNotMatch(answer.error ?? "", /--match-ignore/);
  }
  await assert.rejects(server.finish(), ReplayMissError);
});

test("replay --learn-ignores writes the path under [replay] of mcp-cassette.toml, and the next run matches", async () => {
  const cassette = await recorded([{ label: "a", request_id: randomUUID() }]);
  const folder = path.dirname(cassette);
  const config = path.join(folder, "mcp-cassette.toml");
  writeFileSync(
    config,
    '# our settings\n[replay]\npace = "instant" # kept\n\n[lint]\nfail-on = "error"\n',
  );
  const replay = [...CLI, "replay", cassette, "--learn-ignores"];
  const [first] = await stamps(replay, [{ label: "a", request_id: randomUUID() }], folder);
  assert.match(first.error ?? "", /add --match-ignore params\.arguments\.request_id$/);
  const text = readFileSync(config, "utf8");
  assert.equal(
    text,
    '# our settings\n[replay]\nmatch-ignore = ["params.arguments.request_id"]\npace = "instant" # kept\n\n[lint]\nfail-on = "error"\n',
  );
  // The learned path now applies to every replay under that folder.
  const [second] = await stamps(
    [...CLI, "replay", cassette],
    [{ label: "a", request_id: randomUUID() }],
    folder,
  );
  assert.match(second.text ?? "", /"label":"a"/, JSON.stringify(second));
});

test("the helpers' learnIgnores makes a config file where there was none", async () => {
  const cassette = await recorded([{ label: "a", request_id: randomUUID() }]);
  const folder = path.dirname(cassette);
  const server = await startCassette({
    path: cassette,
    mode: "none",
    replay: { learnIgnores: true },
  });
  await stamps(
    [server.command, ...server.args],
    [{ label: "a", request_id: randomUUID() }],
    folder,
  );
  await assert.rejects(server.finish(), ReplayMissError);
  assert.equal(
    readFileSync(path.join(folder, "mcp-cassette.toml"), "utf8"),
    '[replay]\nmatch-ignore = ["params.arguments.request_id"]\n',
  );
});
