/**
 * State follows what the server showed, not only `readOnlyHint`:
 * server-sequential-thinking marks its tool read-only yet keeps a history,
 * so its reordered calls must be reported, not answered silently from the
 * wrong state; server-memory's honest `read_graph` stays a read. Both real
 * servers from node_modules, recorded and replayed over real pipes.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { CLI, NODE, ROOT, tempDir } from "../helpers.ts";
import { call, converse, opening } from "./echo.ts";

const THINKING = [
  NODE,
  path.join(ROOT, "node_modules/@modelcontextprotocol/server-sequential-thinking/dist/index.js"),
];
const MEMORY = [
  NODE,
  path.join(ROOT, "node_modules/@modelcontextprotocol/server-memory/dist/index.js"),
];

function thought(id: string, text: string, n: number): string {
  return call(id, "sequentialthinking", {
    thought: text,
    thoughtNumber: n,
    totalThoughts: 3,
    nextThoughtNeeded: true,
  });
}

async function record(
  server: readonly string[],
  lines: readonly string[],
  env: Record<string, string> = {},
): Promise<string> {
  const file = path.join(tempDir(), "state.jsonl");
  const list = `{"jsonrpc":"2.0","id":90,"method":"tools/list"}`;
  const result = await converse([...CLI, "record", "-o", file, "--", ...server], [
    ...opening(),
    list,
    ...lines,
  ], { DISABLE_THOUGHT_LOGGING: "true", ...env });
  assert.equal(result.code, 0, result.stderr);
  return file;
}

async function replayReport(file: string, lines: readonly string[]) {
  const report = path.join(path.dirname(file), "report.json");
  const list = `{"jsonrpc":"2.0","id":90,"method":"tools/list"}`;
  const result = await converse([...CLI, "replay", file, "--report", report], [
    ...opening(),
    list,
    ...lines,
  ]);
  return { result, report: JSON.parse(readFileSync(report, "utf8")) };
}

test("sequential-thinking: a read-only hint the recording contradicts is not believed; reordered calls are reported", async () => {
  const file = await record(THINKING, [
    thought("2", "a", 1),
    thought("3", "b", 2),
    thought("4", "a", 1),
  ]);
  const { result, report } = await replayReport(file, [
    thought("2", "b", 2),
    thought("3", "a", 1),
    thought("4", "a", 1),
  ]);
  assert.equal(result.code, 0, result.stderr);
  assert.ok(report.outOfOrder.length > 0, JSON.stringify(report));
  assert.match(result.stderr, /out of order: tools\/call sequentialthinking/);
});

test("server-memory: read_graph, honest about being read-only, stays a read", async () => {
  const env = { MEMORY_FILE_PATH: path.join(tempDir(), "memory.jsonl") };
  const create = call("3", "create_entities", {
    entities: [{ name: "ann", entityType: "person", observations: ["likes tea"] }],
  });
  const file = await record(MEMORY, [
    call("2", "read_graph", {}),
    create,
    call("4", "read_graph", {}),
    call("5", "read_graph", {}),
  ], env);
  const { result, report } = await replayReport(file, [
    create,
    call("3", "read_graph", {}),
    call("4", "read_graph", {}),
  ]);
  assert.equal(result.code, 0, result.stderr);
  assert.deepEqual(report.outOfOrder, []);
  assert.deepEqual(report.repeats, []);
  const answers = result.stdout.trim().split("\n").map((line) => JSON.parse(line));
  for (const answer of answers.slice(-2)) assert.match(JSON.stringify(answer.result), /likes tea/);
});
