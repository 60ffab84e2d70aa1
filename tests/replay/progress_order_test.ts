/**
 * A request's progress notifications reach the SDK client before its answer,
 * whatever the pacing and however busy the client is. The SDK client parses
 * every message one read of its stdin brings, runs a notification's handler a
 * turn later but a response's at once, and drops a progress notification
 * whose request is already answered: a replay that sends the answer a fixed
 * few milliseconds after the last notification loses that notification
 * whenever the client does not read in between (a loaded machine).
 *
 * The client here is made busy on purpose: once its call is sent, it blocks
 * its event loop for longer than the replayed call takes, so everything the
 * replay sends for the call waits in the pipe for one read.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import { Client, StdioClientTransport } from "../sdk.ts";
import { CLI, EVERYTHING, tempDir } from "../helpers.ts";

const LONG_CALL = {
  name: "trigger-long-running-operation",
  arguments: { duration: 0.4, steps: 2 },
};
/** Longer than the whole replayed call (about 400 ms of gaps at recorded pace). */
const BUSY_MS = 1000;

/** Runs the long call against `command`; `busy`: the client stands still once the call is sent. */
async function longCall(command: string[], busy: boolean): Promise<number> {
  const client = new Client({ name: "progress-order", version: "1" }, { capabilities: {} });
  const transport = new StdioClientTransport({
    command: command[0],
    args: command.slice(1),
    stderr: "ignore",
  });
  await client.connect(transport);
  if (busy) {
    const send = transport.send.bind(transport);
    transport.send = async (message: Parameters<typeof send>[0]) => {
      await send(message);
      // A client too busy to read (a loaded machine): its event loop stands still.
      if ("method" in message && message.method === "tools/call") {
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, BUSY_MS);
      }
    };
  }
  let progress = 0;
  try {
    const result = await client.callTool(LONG_CALL, undefined, {
      timeout: 20_000,
      onprogress: () => progress++,
    });
    const text = (result.content as { text: string }[])[0].text;
    assert.match(text, /^Long running operation completed/);
  } finally {
    await client.close();
  }
  return progress;
}

let recording: Promise<string> | undefined;
/** One recording of the long call from server-everything, shared by the tests. */
function recorded(): Promise<string> {
  recording ??= (async () => {
    const cassette = path.join(tempDir("mcp-cassette-progress-"), "long.cassette.jsonl");
    await longCall([...CLI, "record", "-o", cassette, "--", ...EVERYTHING], false);
    return cassette;
  })();
  return recording;
}

test("a busy SDK client still gets both progress notifications before the answer, at recorded pace", async () => {
  const replay = [...CLI, "replay", "--pace", "recorded", await recorded()];
  assert.equal(await longCall(replay, true), 2, "progress handled before the answer");
});

test("a busy SDK client still gets both progress notifications before the answer, at instant pace", async () => {
  const replay = [...CLI, "replay", await recorded()];
  assert.equal(await longCall(replay, true), 2, "progress handled before the answer");
});
