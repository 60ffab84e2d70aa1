import { test } from "node:test";
import assert from "node:assert/strict";
import type { Cassette } from "../../src/cassette/reader.ts";
import type { Entry } from "../../src/cassette/format.ts";
import { makeHeader } from "../../src/cassette/format.ts";
import { buildPlan, planFile } from "../../src/verify/plan.ts";
import { loadCassette } from "../../src/cassette/reader.ts";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { tempDir } from "../helpers.ts";
import { compareAnswers } from "../../src/verify/compare.ts";
import { compileIgnorePaths, isIgnored } from "../../src/verify/normalize.ts";
import { gradeExchanges } from "../../src/verify/grade.ts";
import type { RequestStep } from "../../src/verify/plan.ts";

function cassetteOf(entries: Entry[]): Cassette {
  return {
    path: "memory.jsonl",
    header: makeHeader({ transport: "stdio", server: {} }),
    entries: entries.map((entry, i) => ({ ...entry, line: i + 2 })),
  };
}

const c2s = (msg: object, session?: string): Entry => ({
  type: "message",
  t: 0,
  dir: "c2s",
  msg: msg as never,
  ...(session ? { session } : {}),
});
const s2c = (msg: object, session?: string): Entry => ({
  type: "message",
  t: 0,
  dir: "s2c",
  msg: msg as never,
  ...(session ? { session } : {}),
});

test("buildPlan pairs by id within each session, so ids reused across sessions do not mix", () => {
  const plan = buildPlan(cassetteOf([
    c2s({ jsonrpc: "2.0", id: 1, method: "initialize", params: {} }, "a"),
    c2s({ jsonrpc: "2.0", id: 1, method: "initialize", params: { second: true } }, "b"),
    s2c({ jsonrpc: "2.0", id: 1, result: { who: "b" } }, "b"),
    s2c({ jsonrpc: "2.0", id: 1, result: { who: "a" } }, "a"),
    // An id reused after its answer, within one session.
    c2s({ jsonrpc: "2.0", id: 1, method: "ping" }, "a"),
    s2c({ jsonrpc: "2.0", id: 1, result: { who: "a-ping" } }, "a"),
  ]));
  assert.equal(plan.sessions.length, 2);
  const answers = plan.sessions.map((session) =>
    session.steps.map((step) => (step as RequestStep).recorded?.result)
  );
  assert.deepEqual(answers, [[{ who: "a" }, { who: "a-ping" }], [{ who: "b" }]]);
});

test("buildPlan keeps client answers to server requests aside, queued by method", () => {
  const plan = buildPlan(cassetteOf([
    c2s({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "ask" } }),
    s2c({ jsonrpc: "2.0", id: "s1", method: "sampling/createMessage", params: {} }),
    c2s({ jsonrpc: "2.0", id: "s1", result: { content: { type: "text", text: "42" } } }),
    s2c({ jsonrpc: "2.0", id: 1, result: {} }),
    c2s({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "never-answered" } }),
  ]));
  const [session] = plan.sessions;
  assert.equal(session.steps.length, 2, "the client's answer is not a step");
  assert.deepEqual(session.serverAnswers.get("sampling/createMessage"), [{
    result: { content: { type: "text", text: "42" } },
  }]);
  assert.equal((session.steps[1] as RequestStep).skip, "no recorded answer");
});

test("compareAnswers masks volatile values and names each kind", () => {
  const options = { ignore: [], allowReorder: false };
  const recorded = {
    jsonrpc: "2.0" as const,
    id: 1,
    result: {
      at: "2024-01-01T10:00:00.000Z",
      id: "0b7c3c5e-1111-4a4a-9b9b-123456789abc",
      ttlMs: 5,
      _meta: { x: 1 },
      n: 1,
    },
  };
  const live = {
    jsonrpc: "2.0" as const,
    id: 9,
    result: {
      at: "2026-06-30T23:59:59Z",
      id: "ffffffff-2222-4b4b-8c8c-abcdefabcdef",
      ttlMs: 9,
      n: 1,
    },
  };
  assert.deepEqual(compareAnswers(recorded, live, options), []);
  assert.deepEqual(
    compareAnswers(recorded, undefined, options, "timeout").map((r) => r.kind),
    ["missing-response"],
  );
  const list = (items: unknown[]) => ({
    jsonrpc: "2.0" as const,
    id: 1,
    result: { items } as never,
  });
  assert.equal(compareAnswers(list([1, 2]), list([2, 1]), options)[0].kind, "ordering-change");
  assert.deepEqual(
    compareAnswers(list([1, 2]), list([2, 1]), { ...options, allowReorder: true }),
    [],
  );
  assert.equal(compareAnswers(list([1, 2]), list([1, 2, 3]), options)[0].note, "2 items → 3 items");
});

test("ignore patterns cover a path, its children and any index; not its siblings", () => {
  const patterns = compileIgnorePaths(["result.content[].text"]);
  assert.ok(isIgnored("$.result.content[0].text", patterns));
  assert.ok(isIgnored("$.result.content[12].text.total", patterns));
  assert.ok(!isIgnored("$.result.content[0].textual", patterns));
  assert.ok(!isIgnored("$.result.content[0].type", patterns));
});

test("the grade: weights, letters, and the cap at D", () => {
  const pass = { regressions: [] };
  const value = { regressions: [{ kind: "value-change" as const, path: "$" }] };
  const structure = { regressions: [{ kind: "structure-change" as const, path: "$" }] };
  const missing = { regressions: [{ kind: "missing-response" as const, path: "$" }] };
  assert.equal(gradeExchanges([pass, pass, pass, value, structure]).score, 80);
  assert.equal(gradeExchanges([pass, pass, pass, value, structure]).letter, "B");
  const capped = gradeExchanges([...Array(19).fill(pass), missing]);
  assert.equal(capped.score, 95);
  assert.equal(capped.letter, "D");
  assert.equal(gradeExchanges([missing]).letter, "F");
  assert.equal(gradeExchanges([]).letter, "A");
});

test("planFile streams the file into the plan buildPlan makes of the loaded cassette", async () => {
  const header = makeHeader({ transport: "stdio", server: {} });
  const entries: Entry[] = [
    c2s({ jsonrpc: "2.0", id: 1, method: "initialize", params: {} }),
    s2c({ jsonrpc: "2.0", id: 1, result: { serverInfo: { name: "s" } } }),
    c2s({ jsonrpc: "2.0", method: "notifications/initialized" }),
    c2s({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "wipe" } }),
    s2c({ jsonrpc: "2.0", id: "s1", method: "roots/list" }),
    c2s({ jsonrpc: "2.0", id: "s1", result: { roots: [] } }),
    s2c({ jsonrpc: "2.0", id: 2, result: { content: [] } }),
    c2s({ jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "read" } }, "b"),
    s2c({ jsonrpc: "2.0", id: 3, error: { code: -32000, message: "no" } }, "b"),
    c2s({ jsonrpc: "2.0", id: 4, method: "tools/call", params: { name: "lost" } }),
    // Listed only after the call: the call is still skipped as destructive.
    c2s({ jsonrpc: "2.0", id: 5, method: "tools/list" }),
    s2c({
      jsonrpc: "2.0",
      id: 5,
      result: { tools: [{ name: "wipe", annotations: { destructiveHint: true } }] },
    }),
  ];
  const file = path.join(tempDir(), "plan.cassette.jsonl");
  writeFileSync(file, [header, ...entries].map((line) => JSON.stringify(line)).join("\n") + "\n");
  for (const allowDestructive of [false, true]) {
    const streamed = await planFile(file, { allowDestructive });
    assert.deepEqual(streamed, buildPlan(await loadCassette(file), { allowDestructive }));
    const skips = streamed.sessions.flatMap((session) =>
      session.steps.flatMap((step) => step.kind === "request" ? [step.skip ?? "send"] : [])
    );
    assert.deepEqual(skips, [
      "send",
      allowDestructive ? "send" : "destructive tool (use --allow-destructive)",
      "no recorded answer",
      "send",
      "send",
    ]);
  }
});
