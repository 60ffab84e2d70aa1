/**
 * Repeated reads follow the session's state, not the call count: real
 * stateful servers from npm recorded in one order and replayed in another
 * by the official SDK client (docs/replay.md, "Causal order").
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { rmSync } from "node:fs";
import path from "node:path";
import process from "node:process";
import { Client, StdioClientTransport } from "../sdk.ts";
import { startCassette } from "../../mod.ts";
import type { CassetteResult } from "../../mod.ts";
import { NODE, ROOT, tempDir } from "../helpers.ts";

const MEMORY = [
  NODE,
  path.join(ROOT, "node_modules/@modelcontextprotocol/server-memory/dist/index.js"),
];
const THINKING = [
  NODE,
  path.join(ROOT, "node_modules/@modelcontextprotocol/server-sequential-thinking/dist/index.js"),
];

type Call = [name: string, args: Record<string, unknown>];

/**
 * Runs the calls through `startCassette`; each call's first text, and the
 * finish result. `listFirst` lists the tools first, as most clients do: the
 * recorded annotations tell which tools only read.
 */
async function session(cassette: string, server: string[], calls: Call[], listFirst = false) {
  const cassetteServer = await startCassette({ path: cassette, server });
  const client = new Client({ name: "causal", version: "1" });
  const texts: string[] = [];
  try {
    const env = { ...process.env } as Record<string, string>; // The SDK passes on only a few variables.
    await client.connect(
      new StdioClientTransport({ command: cassetteServer.command, args: cassetteServer.args, env }),
    );
    if (listFirst) await client.listTools();
    for (const [name, args] of calls) {
      const result = await client.callTool({ name, arguments: args });
      texts.push(((result.content as { text: string }[])[0]?.text ?? "").trim());
    }
  } finally {
    await client.close();
  }
  const result: CassetteResult = await cassetteServer.finish();
  return { texts, result };
}

const readGraph: Call = ["read_graph", {}];
const create = (name: string): Call => [
  "create_entities",
  { entities: [{ name, entityType: "note", observations: [`about ${name}`] }] },
];

test("server-memory: a read replayed after a write gets the answer recorded after that write", async (t) => {
  const dir = tempDir();
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  process.env.MEMORY_FILE_PATH = path.join(dir, "memory.jsonl");
  t.after(() => delete process.env.MEMORY_FILE_PATH);
  const cassette = path.join(dir, "memory.cassette.jsonl");
  // Recorded: read (empty), write x, read (x), write y, read (x, y).
  const live = await session(cassette, MEMORY, [
    readGraph,
    create("x"),
    readGraph,
    create("y"),
    readGraph,
  ], true);
  const [empty, , withX, , withXY] = live.texts;
  assert.doesNotMatch(empty, /"x"/);
  assert.match(withX, /"x"/);
  assert.match(withXY, /"y"/);
  // Replayed: both writes first, then reads: every read is the one after both writes.
  const replayed = await session(
    cassette,
    MEMORY,
    [create("x"), create("y"), readGraph, readGraph],
    true,
  );
  assert.equal(replayed.texts[2], withXY);
  assert.equal(replayed.texts[3], withXY, "nothing in between: the previous answer again");
  assert.deepEqual(replayed.result.outOfOrder, []);
  // Replayed: one write, two reads: the answer recorded after that write, twice.
  const partial = await session(cassette, MEMORY, [create("x"), readGraph, readGraph], true);
  assert.deepEqual(partial.texts.slice(1), [withX, withX]);
  // A read before any write is the read recorded before any write.
  const first = await session(cassette, MEMORY, [readGraph], true);
  assert.equal(first.texts[0], empty);
});

test("server-memory: a read after a write this session has not made is answered by the nearest recording, reported out of order", async (t) => {
  const dir = tempDir();
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  process.env.MEMORY_FILE_PATH = path.join(dir, "memory.jsonl");
  t.after(() => delete process.env.MEMORY_FILE_PATH);
  const cassette = path.join(dir, "memory.cassette.jsonl");
  const live = await session(
    cassette,
    MEMORY,
    [create("x"), readGraph, create("y"), readGraph],
    true,
  );
  // Only y written live: no recording of the read has exactly that history.
  const replayed = await session(cassette, MEMORY, [create("y"), readGraph], true);
  assert.equal(replayed.texts[1], live.texts[3], "the read recorded after y is the nearest");
  assert.equal(replayed.result.outOfOrder.length, 2, replayed.result.outOfOrder.join("\n"));
  assert.match(replayed.result.outOfOrder.join("\n"), /create_entities/);
  assert.match(replayed.result.outOfOrder.join("\n"), /read_graph/);
});

const thought = (thoughtNumber: number): Call => [
  "sequentialthinking",
  {
    thought: `step ${thoughtNumber}`,
    thoughtNumber,
    totalThoughts: 3,
    nextThoughtNeeded: thoughtNumber < 3,
  },
];

test("server-sequential-thinking: a read-only hint its recording contradicts is not believed; thoughts replayed in another order are reported", async (t) => {
  const dir = tempDir();
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const cassette = path.join(dir, "thinking.cassette.jsonl");
  const live = await session(
    cassette,
    THINKING,
    [thought(1), thought(2), thought(3), thought(2)],
    true,
  );
  assert.match(live.texts[2], /"thoughtHistoryLength": 3/);
  assert.match(live.texts[3], /"thoughtHistoryLength": 4/);
  // The recorded tools/list marks the tool read-only, but thought 2 was answered
  // differently twice with no write between: the server keeps state, so every
  // thought is history for the next, and answers given from another history
  // are reported, never silent.
  const replayed = await session(cassette, THINKING, [
    thought(3),
    thought(2),
    thought(1),
    thought(2),
  ], true);
  assert.deepEqual(replayed.result.misses, []);
  assert.ok(replayed.result.outOfOrder.length > 0, JSON.stringify(replayed.result));
  // Replayed in the recorded order, every thought gets its own recording, in order.
  const again = await session(cassette, THINKING, [
    thought(1),
    thought(2),
    thought(3),
    thought(2),
  ], true);
  assert.deepEqual(again.texts, live.texts);
  assert.deepEqual(again.result.outOfOrder, []);
});
