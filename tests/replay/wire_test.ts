/**
 * The live id in a recorded answer (src/replay/wire.ts): the text is the
 * recorded one with only the top-level id's value replaced, for every
 * answer made from the same frame, and a frame without its own text gets
 * exactly what serialising the live message would give.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import type { JsonRpcMessage } from "../../src/jsonrpc/messages.ts";
import { withLiveId } from "../../src/replay/wire.ts";

test("withLiveId: the recorded text keeps its own spacing and number forms, only the id changes", () => {
  const text = '{"jsonrpc":"2.0", "result":{"id":1,"x":9.0},  "id" :  7 }';
  const frame = { msg: JSON.parse(text) as JsonRpcMessage, text };
  const first = withLiveId(frame, 'a"b');
  assert.equal(first.text, '{"jsonrpc":"2.0", "result":{"id":1,"x":9.0},  "id" :  "a\\"b" }');
  assert.equal(first.message.id, 'a"b');
  // The same frame answers again with another id: nothing of the first answer stays.
  const second = withLiveId(frame, 42);
  assert.equal(second.text, '{"jsonrpc":"2.0", "result":{"id":1,"x":9.0},  "id" :  42 }');
  assert.equal(second.message.id, 42);
  assert.equal(frame.msg.id, 7, "the recorded message is left as it was");
});

test("withLiveId: a frame without its own text gets the serialised live message, answer after answer", () => {
  const msg = { jsonrpc: "2.0", id: 3, result: { content: [{ type: "text", text: "id: 3" }] } };
  const frame = { msg: msg as JsonRpcMessage };
  for (const id of [1, "s-1", 'q"uote', 1e21, 0]) {
    const ready = withLiveId(frame, id);
    const expected = JSON.stringify({ ...msg, id });
    assert.equal(ready.text ?? JSON.stringify(ready.message), expected, `id ${String(id)}`);
    assert.deepEqual(ready.message, { ...msg, id });
  }
});

test("withLiveId: a recorded text without a top-level id goes out as recorded", () => {
  const text = '{"jsonrpc":"2.0","result":{"id":5}}';
  const frame = { msg: JSON.parse(text) as JsonRpcMessage, text };
  assert.equal(withLiveId(frame, 9).text, text);
});
