/** Where the id's own text is found in a line: first, last, between nested ids, or not at all. */
import { test } from "node:test";
import assert from "node:assert/strict";
import { lostIdText } from "../../src/replay/exact_id.ts";

const cases: [string, string | undefined][] = [
  ['{"jsonrpc":"2.0","id":7.0,"method":"ping"}', "7.0"],
  ['{"method":"x","params":{"id":1,"a":[{"id":2}]},"jsonrpc":"2.0","id":7.0}', "7.0"],
  ['{"params":{"id":1},"id" : 12345678901234567890 ,"method":"x"}', "12345678901234567890"],
  ['{"method":"a{\\"id\\":3}","id":1e2}', "1e2"],
  ['{"jsonrpc":"2.0","id":7,"method":"ping","params":{"id":7.0}}', undefined],
  ['{"jsonrpc":"2.0","id":-0,"method":"ping"}', "-0"],
];

test("the id's own text is found at the top level only, and only when parsing lost it", () => {
  for (const [line, own] of cases) assert.equal(lostIdText(line, JSON.parse(line)), own, line);
  assert.equal(lostIdText('{"id":"7.0","method":"x"}', { id: "7.0" }), undefined);
});
