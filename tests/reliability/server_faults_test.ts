/**
 * Faults are recorded as what they were: a server that crashes mid-answer
 * leaves its half line and its exit code in the cassette; a server that hangs
 * leaves the unanswered request, and SIGTERM still ends the recording.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import { loadCassette } from "../../src/cassette/reader.ts";
import { CLI, tempDir } from "../helpers.ts";
import { call, FIXTURE, initialize, LineProcess } from "./_helpers.ts";

test("a server that crashes mid-answer: half line forwarded and kept, exit code recorded and returned", async () => {
  const cassette = path.join(tempDir("mcp-cassette-faults-"), "crash.cassette.jsonl");
  const live = new LineProcess([...CLI, "record", "-o", cassette, "--", ...FIXTURE, "serve"], {
    keepBytes: true,
  });
  live.send(initialize());
  await live.answer(1);
  live.send(call(2, "crash"));
  const exit = await live.closed;
  assert.equal(exit.code, 3, "the recorder exits with the server's code");
  const half = '{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"te';
  assert.ok(
    Buffer.concat(live.chunks).toString("utf8").endsWith(half),
    "the half line reached the client",
  );
  const loaded = await loadCassette(cassette);
  const last = loaded.entries.slice(-2);
  assert.deepEqual(last.map((entry) => entry.type), ["raw", "session"]);
  assert.equal((last[0] as { text: string }).text, half);
  assert.equal((last[1] as { exitCode?: number }).exitCode, 3);
});

test("a server that hangs: the request stays unanswered in the cassette and SIGTERM ends the recording", async () => {
  const cassette = path.join(tempDir("mcp-cassette-faults-"), "hang.cassette.jsonl");
  const live = new LineProcess([...CLI, "record", "-o", cassette, "--", ...FIXTURE, "serve"]);
  live.send(initialize());
  await live.answer(1);
  live.send(call(2, "hang"));
  live.send(call(3, "echo", { a: 1 }));
  await live.until(
    () => live.messages().some((message) => message.id === 3),
    "the answer after the hang",
  );
  live.child.kill("SIGTERM");
  await live.closed;
  const loaded = await loadCassette(cassette);
  const ids = loaded.entries.filter((entry) => entry.type === "message" && entry.dir === "s2c")
    .map((entry) => (entry as { msg: { id?: number } }).msg.id);
  assert.ok(!ids.includes(2), "no answer was invented for the hung request");
  assert.ok(
    loaded.entries.some((entry) =>
      entry.type === "message" && entry.dir === "c2s" && (entry.msg as { id?: number }).id === 2
    ),
  );
  assert.ok(loaded.entries.some((entry) => entry.type === "session" && entry.event === "end"));
});
