import { describe, it } from "node:test";
import assert from "node:assert/strict";
import {
  JsonlLineStream,
  type JsonlLineStreamOptions,
  LineTooLongError,
} from "../../src/framing/jsonl.ts";
import { cutAt, everyChunking, runThrough } from "./chunking.ts";

const utf8 = (text: string) => new TextEncoder().encode(text);

function lines(chunks: Uint8Array[], options?: JsonlLineStreamOptions): Promise<string[]> {
  return runThrough(new JsonlLineStream(options), chunks);
}

describe("JsonlLineStream", () => {
  it("splits on LF and CRLF at every read size and split point", async () => {
    const text = '{"a":1}\n{"b":"é€😀"}\r\n\n{"c":[]}\r\n"last"';
    const expected = ['{"a":1}', '{"b":"é€😀"}', "", '{"c":[]}', '"last"'];
    for (const [label, chunks] of everyChunking(utf8(text))) {
      assert.deepEqual(await lines(chunks), expected, label);
    }
  });

  it("keeps a lone CR inside a line: only LF ends a JSONL line", async () => {
    assert.deepEqual(await lines([utf8("a\rb\n")]), ["a\rb"]);
  });

  it("emits an unterminated last line and reports it to onUnterminated", async () => {
    const seen: string[] = [];
    const result = await lines([utf8("one\ntw"), utf8("o")], {
      onUnterminated: (text) => seen.push(text),
    });
    assert.deepEqual(result, ["one", "two"]);
    assert.deepEqual(seen, ["two"]);
  });

  it("drops the unterminated last line when emitUnterminated is false, still reporting it", async () => {
    const seen: string[] = [];
    const result = await lines([utf8("one\ntwo")], {
      emitUnterminated: false,
      onUnterminated: (text) => seen.push(text),
    });
    assert.deepEqual(result, ["one"]);
    assert.deepEqual(seen, ["two"]);
  });

  it("does not call onUnterminated when the stream ends with a newline", async () => {
    const seen: string[] = [];
    assert.deepEqual(await lines([utf8("one\n")], { onUnterminated: (text) => seen.push(text) }), [
      "one",
    ]);
    assert.deepEqual(seen, []);
  });

  it("errors with LineTooLongError naming the line when a line exceeds the cap", async () => {
    const bytes = utf8("ok\n" + "x".repeat(11) + "\nafter\n");
    for (const [label, chunks] of everyChunking(bytes)) {
      await assert.rejects(lines(chunks, { maxLineChars: 10 }), (error: unknown) => {
        assert.ok(error instanceof LineTooLongError, label);
        assert.equal(error.lineNumber, 2, label);
        assert.equal(error.maxChars, 10, label);
        return true;
      });
    }
  });

  it("accepts a line of exactly the cap, with LF or CRLF, and refuses one more character", async () => {
    const atCap = "x".repeat(10);
    const overCap = "x".repeat(11);
    for (const ending of ["\n", "\r\n"]) {
      assert.deepEqual(await lines([utf8(atCap + ending)], { maxLineChars: 10 }), [atCap]);
      await assert.rejects(lines([utf8(overCap + ending)], { maxLineChars: 10 }), LineTooLongError);
      await assert.rejects(
        lines([utf8(overCap), utf8(ending)], { maxLineChars: 10 }),
        LineTooLongError,
      );
    }
    await assert.rejects(lines([utf8(overCap)], { maxLineChars: 10 }), LineTooLongError);
  });

  it("with onOverlong, skips the long line and carries on at every chunking", async () => {
    const bytes = utf8("a\n" + "y".repeat(25) + "\r\nb\n" + "z".repeat(12) + "\nc");
    for (const [label, chunks] of everyChunking(bytes)) {
      const overlong: number[] = [];
      const result = await lines(chunks, {
        maxLineChars: 10,
        onOverlong: (error) => overlong.push(error.lineNumber),
      });
      assert.deepEqual(result, ["a", "b", "c"], label);
      assert.deepEqual(overlong, [2, 4], label);
    }
  });

  it("decodes as one TextDecoder over the whole input would, at every read size and split point", async () => {
    // A leading BOM (dropped), a BOM mid-stream (kept), an invalid byte, a
    // lone lead byte before a newline, and multi-byte characters: the
    // splitter decodes chunks that end on ASCII without the streaming state.
    const bytes = new Uint8Array([
      0xef,
      0xbb,
      0xbf,
      ...utf8('{"a":"é"}\n'),
      0xef,
      0xbb,
      0xbf,
      ...utf8("x\n"),
      0x61,
      0xff,
      0x62,
      0x0a,
      0xe2,
      0x0a,
      ...utf8("€😀\nend"),
      0xf0,
      0x9f,
    ]);
    const expected = new TextDecoder().decode(bytes).split("\n");
    for (const [label, chunks] of everyChunking(bytes)) {
      assert.deepEqual(await lines(chunks), expected, label);
    }
  });

  it("decodes multi-byte characters split across every pair of reads", async () => {
    const bytes = utf8("ü€😀\n");
    for (let first = 1; first < bytes.length; first++) {
      for (let second = first + 1; second < bytes.length; second++) {
        assert.deepEqual(
          await lines(cutAt(bytes, [first, second])),
          ["ü€😀"],
          `cuts at ${first}, ${second}`,
        );
      }
    }
  });
});
