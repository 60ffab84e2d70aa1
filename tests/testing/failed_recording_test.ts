/**
 * A failed first recording leaves nothing behind: a server that never
 * started, or never answered, leaves no cassette (or the previous one byte
 * for byte), so the helpers' `once` mode records again once the command is
 * fixed. Real parts: the official SDK client, server-everything, the CLI.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { Client, StdioClientTransport } from "../sdk.ts";
import { cassetteForTest } from "../../src/testing/mod.ts";
import { CLI, EVERYTHING, NODE, run, tempDir } from "../helpers.ts";

async function sumThrough(server: { command: string; args: string[] }): Promise<unknown> {
  const transport = new StdioClientTransport({
    command: server.command,
    args: server.args,
    stderr: "ignore",
  });
  const client = new Client({ name: "failed-first", version: "1.0.0" });
  await client.connect(transport);
  try {
    return (await client.callTool({ name: "get-sum", arguments: { a: 2, b: 40 } })).content;
  } finally {
    await client.close();
  }
}

test("record -o x.jsonl -- /nonexistent exits 7 and leaves no file", async () => {
  const dir = tempDir("mcp-cassette-failed-");
  const cassette = path.join(dir, "x.jsonl");
  const failed = await run([...CLI, "record", "-o", cassette, "--", "/nonexistent"]);
  assert.equal(failed.code, 7, failed.stderr);
  assert.deepEqual(readdirSync(dir), [], "a cassette or claim was left behind");

  // A server that starts but answers nothing leaves nothing either.
  const silent = await run(
    [...CLI, "record", "-o", cassette, "--", NODE, "-e", "process.exit(3)"],
    {
      input: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: {} }) + "\n",
    },
  );
  assert.equal(silent.code, 7, silent.stderr);
  assert.deepEqual(readdirSync(dir), []);
});

test("helpers, mode once: after a server that could not start, the fixed command records", async () => {
  const dir = tempDir("mcp-cassette-failed-");
  const names = ["adds two numbers"];
  const broken = await cassetteForTest(names, { dir, mode: "once", server: ["/nonexistent"] });
  assert.equal(broken.action, "record");
  await assert.rejects(sumThrough(broken));
  await broken.finish().catch(() => {});
  assert.equal(existsSync(broken.path), false, "the failed recording left a cassette");

  const fixed = await cassetteForTest(names, { dir, mode: "once", server: EVERYTHING });
  assert.equal(fixed.action, "record", "once mode replayed what the failed recording left");
  assert.deepEqual(await sumThrough(fixed), [{ type: "text", text: "The sum of 2 and 40 is 42." }]);
  await fixed.finish();
  assert.match(readFileSync(fixed.path, "utf8"), /get-sum/);

  const again = await cassetteForTest(names, { dir, mode: "once", server: EVERYTHING });
  assert.equal(again.action, "replay");
  assert.deepEqual(await sumThrough(again), [{ type: "text", text: "The sum of 2 and 40 is 42." }]);
  await again.finish();
});
