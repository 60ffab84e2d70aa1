/**
 * The matching rules replay answers by: keys, answer queues, and miss
 * diagnoses, on real message shapes.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { AnswerBook } from "../../src/match/answer_book.ts";
import { diagnoseMiss } from "../../src/match/diagnose.ts";
import { keyHash, normaliseParams, requestKey } from "../../src/match/fingerprint.ts";
import type { JsonRpcMessage } from "../../src/jsonrpc/messages.ts";

const call = (name: string, args: unknown, extra: Record<string, unknown> = {}): JsonRpcMessage =>
  ({
    jsonrpc: "2.0",
    id: 1,
    method: "tools/call",
    params: { name, arguments: args, ...extra },
  }) as JsonRpcMessage;

test("keys ignore the id, key order, _meta, cursors and progress tokens", () => {
  const a = requestKey(call("get-sum", { a: 1, b: 2 }, { _meta: { progressToken: 7 } }));
  const b = requestKey({ ...call("get-sum", { b: 2, a: 1 }), id: "x" });
  assert.equal(a.key, b.key);
  const page1 = requestKey({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} });
  const page2 = requestKey({
    jsonrpc: "2.0",
    id: 2,
    method: "tools/list",
    params: { cursor: "abc" },
  });
  assert.equal(page1.key, page2.key);
  assert.notEqual(requestKey(call("get-sum", { a: 1, b: 3 })).key, a.key);
  // Absent params and {} are one request: clients differ in which they send.
  assert.equal(requestKey({ jsonrpc: "2.0", id: 1, method: "tools/list" }).key, page1.key);
  // Lifecycle requests match by method alone: their params only negotiate.
  const init = (version: string) =>
    requestKey({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: version },
    });
  assert.equal(init("2025-06-18").key, init("2025-11-25").key);
  assert.equal(requestKey(call("echo", {})).name, "echo");
  assert.equal(
    requestKey({ jsonrpc: "2.0", id: 1, method: "resources/read", params: { uri: "file:///a" } })
      .name,
    "file:///a",
  );
});

test("identical requests take their answers in order, then the last repeats", () => {
  const items = ["first", "second"].map((answer) => ({
    key: requestKey(call("echo", { m: "x" })),
    answer,
  }));
  const book = new AnswerBook(items);
  const key = requestKey(call("echo", { m: "x" }));
  assert.deepEqual(
    [book.take(key), book.take(key), book.take(key)].map((m) => [m?.item.answer, m?.kind]),
    [
      ["first", "exact"],
      ["second", "exact"],
      ["second", "repeat"],
    ],
  );
  assert.deepEqual(book.unused(), []);
});

test("a missing key takes the next unused answer of the same tool, never another tool's", () => {
  const book = new AnswerBook([
    { key: requestKey(call("echo", { m: "a" })), answer: "echo a" },
    { key: requestKey(call("get-sum", { a: 1 })), answer: "sum" },
  ]);
  assert.equal(
    book.take(requestKey(call("echo", { m: "b" }))),
    undefined,
    "exact by default: no stand-ins",
  );
  const inexact = book.take(requestKey(call("echo", { m: "b" })), true);
  assert.deepEqual([inexact?.item.answer, inexact?.kind], ["echo a", "inexact"]);
  assert.equal(book.take(requestKey(call("echo", { m: "c" })), true), undefined);
  assert.equal(book.take(requestKey(call("unknown", {})), true), undefined);
  assert.deepEqual(book.unused().map((item) => item.answer), ["sum"]);
});

test("a miss names the closest recording and what differs", () => {
  const recorded = [
    requestKey(call("get-sum", { a: 2, b: 40 })),
    requestKey(call("echo", { message: "hi" })),
    requestKey({ jsonrpc: "2.0", id: 1, method: "prompts/get", params: { name: "simple" } }),
  ];
  const path = diagnoseMiss(requestKey(call("get-sum", { a: 2, b: 41 })), recorded);
  assert.equal(path.differs, "params.arguments.b");
  assert.match(path.message, /recorded 40, got 41/);
  const name = diagnoseMiss(requestKey(call("get-product", { a: 2 })), recorded);
  assert.equal(name.differs, "name");
  assert.match(
    name.message,
    /name "get-product" was never recorded for tools\/call \(recorded: get-sum, echo\)/,
  );
  const method = diagnoseMiss(
    requestKey({ jsonrpc: "2.0", id: 1, method: "resources/list" }),
    recorded,
  );
  assert.equal(method.differs, "method");
  assert.match(method.message, /method "resources\/list" was never recorded/);
  assert.match(diagnoseMiss(requestKey(call("x", {})), []).message, /holds no requests/);
});

test("params nested past the normalising depth are keyed by their text: no overflow, same text same key", () => {
  const deep = (depth: number, leaf: unknown) => {
    let value: unknown = leaf;
    for (let i = 0; i < depth; i++) value = [value];
    return value;
  };
  const a = requestKey(call("walk", { tree: deep(10_000, 1) }));
  assert.equal(a.key, requestKey({ ...call("walk", { tree: deep(10_000, 1) }), id: 99 }).key);
  assert.notEqual(a.key, requestKey(call("walk", { tree: deep(10_000, 2) })).key);
  assert.equal(a.name, "walk");
  // Shallower params are still normalised (key order, _meta).
  assert.equal(
    requestKey(call("walk", { tree: deep(100, { b: 1, a: 2, _meta: {} }) })).key,
    requestKey(call("walk", { tree: deep(100, { a: 2, b: 1 }) })).key,
  );
});

test('a key named "__proto__" is part of the key, like any other (outside Deno, assigning it sets the prototype)', () => {
  const message = (args: string, extra = "") =>
    JSON.parse(
      `{"jsonrpc":"2.0","id":1,"method":"custom/thing","params":{"a":${args}${extra}}}`,
    ) as JsonRpcMessage;
  const plain = requestKey(message('{"__proto__":{"x":1}}')).key;
  assert.match(plain, /__proto__/);
  assert.equal(
    requestKey(message('{"__proto__":{"x":1},"_meta":{"t":2}}', ',"cursor":"c"')).key,
    plain,
  );
  assert.notEqual(requestKey(message("{}")).key, plain);
  assert.deepEqual(
    JSON.stringify(normaliseParams(message('{"__proto__":{"x":1},"_meta":1}'))),
    '{"a":{"__proto__":{"x":1}}}',
  );
});

test("two keys with one hash are told apart: each takes its own answers, a third with it misses", () => {
  // FNV-1a gives these two calls one 32-bit hash (found by search); the book
  // indexes by the hash and must confirm each hit by the key itself.
  const first = requestKey(call("echo", { n: 8899 }));
  const second = requestKey(call("echo", { n: 382016 }));
  assert.equal(keyHash(first.key), keyHash(second.key), "the two keys share a hash");
  assert.notEqual(first.key, second.key);
  // Reads (they change no state), so that each key's answers come in recorded order.
  const items = [
    { key: first, changesState: false, answer: "first-1" },
    { key: second, changesState: false, answer: "second-1" },
    { key: first, changesState: false, answer: "first-2" },
    { key: second, changesState: false, answer: "second-2" },
  ];
  const book = new AnswerBook(items);
  assert.equal(book.take(second)?.item.answer, "second-1");
  assert.equal(book.take(first)?.item.answer, "first-1");
  assert.equal(book.take(second)?.item.answer, "second-2");
  assert.equal(book.take(first)?.item.answer, "first-2");
  assert.equal(book.take(first)?.kind, "repeat");
  // Only the first key recorded: the second, hash and all, is a miss.
  const alone = new AnswerBook([{ key: first, changesState: false, answer: "first" }]);
  assert.equal(alone.has(second), false);
  assert.equal(alone.take(second), undefined);
  assert.equal(alone.take(first)?.item.answer, "first");
});
