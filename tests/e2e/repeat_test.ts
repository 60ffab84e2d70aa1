/**
 * A request asked more often than recorded gets the last answer again, but
 * not the server's one-time reactions to it: a client that re-lists tools on
 * notifications/tools/list_changed must not be sent into a loop.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import { CLI, ROOT } from "../helpers.ts";
import { LineProcess } from "../reliability/_helpers.ts";

const GOLDEN = path.join(ROOT, "tests/interop/golden/everything.cassette.jsonl");

test("a repeated answer comes without the recorded list_changed", async () => {
  const replay = new LineProcess([...CLI, "replay", GOLDEN]);
  const listChanged = () =>
    replay.messages().filter((message) => message.method === "notifications/tools/list_changed")
      .length;
  replay.send({
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: {
      protocolVersion: "2025-11-25",
      capabilities: {},
      clientInfo: { name: "r", version: "1" },
    },
  });
  await replay.answer(1);
  replay.send({ jsonrpc: "2.0", method: "notifications/initialized" });
  replay.send({ jsonrpc: "2.0", id: 2, method: "tools/list" });
  await replay.answer(2);
  await replay.until(() => listChanged() > 0, "the recorded list_changed");
  const recorded = listChanged();
  replay.send({ jsonrpc: "2.0", id: 3, method: "tools/list", params: {} });
  const again = await replay.answer(3);
  assert.ok((again.result as { tools: unknown[] }).tools.length > 0);
  replay.send({ jsonrpc: "2.0", id: 4, method: "tools/list" });
  await replay.answer(4);
  assert.equal(listChanged(), recorded, "no list_changed came with the repeats");
  await replay.finish();
  assert.match(replay.stderr, /repeating the last recorded answer to tools\/list/);
  assert.match(replay.stderr, /session summary: 2 repeated/);
});
