/**
 * Spy mode (`replay --on-miss live -- SERVER`, the library's `onMiss:
 * "live"`): hits come from the cassette, misses from a live server started
 * on the first miss, and nothing is written unless `--append`. The live
 * servers are a server of ours with no SDK (a fresh nonce and the value of
 * $STAMP_VALUE in each answer) and server-everything; the clients the
 * official SDK's and raw JSON-RPC on a pipe.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { startCassette } from "../../mod.ts";
import { Client, StdioClientTransport } from "../sdk.ts";
import { CLI, EVERYTHING, initializeRequest, NODE, ROOT, run, tempDir } from "../helpers.ts";

const SERVER = [NODE, path.join(ROOT, "tests/fixtures/upkeep/nonce_server.mjs")];

/** Calls `stamp` once per label through the SDK client; the texts (or error messages). */
async function stamps(command: string[], labels: string[], env?: Record<string, string>) {
  const client = new Client({ name: "spy-test", version: "1.0.0" });
  const transport = new StdioClientTransport({
    command: command[0],
    args: command.slice(1),
    env: env ? { ...process.env as Record<string, string>, ...env } : undefined,
    stderr: "ignore",
  });
  await client.connect(transport);
  const texts: string[] = [];
  try {
    for (const label of labels) {
      try {
        const result = await client.callTool({ name: "stamp", arguments: { label } });
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

async function recorded(labels: string[]): Promise<{ cassette: string; texts: string[] }> {
  const cassette = path.join(tempDir(), "stamp.cassette.jsonl");
  const server = await startCassette({ path: cassette, mode: "all", server: SERVER });
  const texts = await stamps([server.command, ...server.args], labels, { STAMP_VALUE: "then" });
  await server.finish();
  return { cassette, texts };
}

test("spy: a hit is the recording, a miss is the live server's answer, and the cassette is not touched", async () => {
  const { cassette, texts } = await recorded(["a"]);
  const before = readFileSync(cassette, "utf8");
  const report = path.join(path.dirname(cassette), "report.json");
  const spy = [
    ...CLI,
    "replay",
    cassette,
    "--on-miss",
    "live",
    "--report",
    report,
    "--",
    ...SERVER,
  ];
  const [hit, miss] = await stamps(spy, ["a", "b"], { STAMP_VALUE: "now" });
  assert.equal(hit, texts[0]);
  const live = JSON.parse(miss);
  assert.equal(live.label, "b");
  assert.equal(live.value, "now", "answered by the live server, which reads the environment");
  assert.equal(readFileSync(cassette, "utf8"), before);
  const written = JSON.parse(readFileSync(report, "utf8"));
  assert.deepEqual(written.live, ['tools/call "stamp"']);
  assert.deepEqual(written.misses, []);
});

test("spy on the CLI: exit 0 when every miss was answered live, the stderr summary says so", async () => {
  const { cassette } = await recorded(["a"]);
  const before = readFileSync(cassette, "utf8");
  const input = [
    initializeRequest(1),
    { jsonrpc: "2.0", method: "notifications/initialized" },
    {
      jsonrpc: "2.0",
      id: 2,
      method: "tools/call",
      params: { name: "stamp", arguments: { label: "z" } },
    },
  ].map((message) => JSON.stringify(message) + "\n").join("");
  const result = await run([...CLI, "replay", cassette, "--on-miss", "live", "--", ...SERVER], {
    input,
    env: { STAMP_VALUE: "now" },
  });
  assert.equal(result.code, 0, result.stderr);
  assert.match(result.stderr, /answered live: tools\/call "stamp"/);
  assert.match(result.stderr, /1 answered live/);
  const answer = result.stdout.trim().split("\n").map((line) => JSON.parse(line)).find((m) =>
    m.id === 2
  );
  assert.match(answer.result.content[0].text, /"label":"z".*"value":"now"/);
  assert.equal(readFileSync(cassette, "utf8"), before);
  const plain = await run([...CLI, "replay", cassette], { input });
  assert.equal(plain.code, 3, "without --on-miss live the same session misses");
});

test("spy with --append keeps what the live server answered, as --new-episodes", async () => {
  const { cassette } = await recorded(["a"]);
  const spy = [...CLI, "replay", cassette, "--on-miss", "live", "--append", "--", ...SERVER];
  const [, miss] = await stamps(spy, ["a", "b"], { STAMP_VALUE: "now" });
  const replayed = await stamps([...CLI, "replay", cassette], ["b"]);
  assert.equal(replayed[0], miss);
});

test("the library's onMiss: live sends misses to server-everything and lists them in the result", async () => {
  const cassette = path.join(tempDir(), "everything.cassette.jsonl");
  const recording = await startCassette({ path: cassette, mode: "all", server: EVERYTHING });
  const client = new Client({ name: "spy-test", version: "1.0.0" });
  await client.connect(
    new StdioClientTransport({ command: recording.command, args: recording.args }),
  );
  await client.listTools();
  await client.close();
  await recording.finish();
  const before = readFileSync(cassette, "utf8");

  const server = await startCassette({
    path: cassette,
    mode: "none",
    server: EVERYTHING,
    onMiss: "live",
  });
  const spied = new Client({ name: "spy-test", version: "1.0.0" });
  await spied.connect(new StdioClientTransport({ command: server.command, args: server.args }));
  try {
    await spied.listTools();
    const echoed = await spied.callTool({ name: "echo", arguments: { message: "spied" } });
    assert.match(JSON.stringify(echoed.content), /spied/);
  } finally {
    await spied.close();
  }
  const result = await server.finish();
  assert.deepEqual(result.live, ['tools/call "echo"']);
  assert.deepEqual(result.misses, []);
  assert.equal(readFileSync(cassette, "utf8"), before);
});

test("--on-miss live without a server, or --append alone, is one line, exit 2", async () => {
  const { cassette } = await recorded(["a"]);
  const before = readFileSync(cassette, "utf8");
  const alone = await run([...CLI, "replay", cassette, "--on-miss", "live"]);
  assert.equal(alone.code, 2, alone.stderr);
  assert.equal(alone.stderr.trim().split("\n").length, 1);
  assert.match(alone.stderr, /--on-miss live needs the live server command after --/);
  const append = await run([...CLI, "replay", cassette, "--append"]);
  assert.equal(append.code, 2, append.stderr);
  assert.match(append.stderr, /--append goes with --on-miss live/);
  await assert.rejects(
    startCassette({ path: cassette, mode: "none", onMiss: "live" }),
    /onMiss "live" needs the live server/,
  );
  assert.equal(readFileSync(cassette, "utf8"), before);
});
