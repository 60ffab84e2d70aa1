/**
 * The stdio replay's output (src/replay/line_writer.ts) where the runtime
 * writes straight through: every line arrives whole and exact, a long one
 * written in pieces through one kept buffer, whatever characters fall on a
 * piece's edge, and from the parts an answer was joined from.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { writableWithWriteNow } from "../../src/runtime/immediate.ts";
import { LineWriter } from "../../src/replay/line_writer.ts";

/** A writer whose every write is kept; `text()` decodes what arrived. */
function collecting() {
  const chunks: Uint8Array[] = [];
  const output = writableWithWriteNow((bytes) => void chunks.push(bytes.slice()), {});
  const text = () => new TextDecoder("utf-8", { fatal: true }).decode(Buffer.concat(chunks));
  return { writer: new LineWriter(output), chunks, text };
}

test("LineWriter: a long line with surrogate pairs and three-byte characters at every offset arrives exact", async () => {
  // 16 Ki units is the piece size: the pairs and the euro signs straddle every piece edge.
  for (const shift of [0, 1, 2]) {
    const { writer, text, chunks } = collecting();
    const line = "x".repeat(shift) + "😀€".repeat(40_000);
    await writer.write(line);
    await writer.write("short");
    assert.equal(text(), `${line}\nshort\n`, `shift ${shift}`);
    assert.ok(chunks.length > 3, "the long line went out in pieces");
  }
});

test("LineWriter: a long line given in parts is written from them, exact", async () => {
  const { writer, text } = collecting();
  const before = '{"jsonrpc":"2.0","result":{"text":"' + "😀".repeat(20_000);
  const pieces = [before, '"},"id":', "12345678901234567890", "}"];
  await writer.write(pieces.join(""), pieces);
  assert.equal(text(), pieces.join("") + "\n");
});
