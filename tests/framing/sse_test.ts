import { describe, it } from "node:test";
import assert from "node:assert/strict";
import {
  encodeSseComment,
  encodeSseEvent,
  parseSseText,
  SseEncoderStream,
  type SseEvent,
  SseParserStream,
} from "../../src/framing/sse.ts";
import { cutAt, everyChunking, runThrough } from "./chunking.ts";

const utf8 = (text: string) => new TextEncoder().encode(text);

/** Parses byte chunks through a fresh stream; returns events and comments. */
async function parseChunks(chunks: (Uint8Array | string)[]) {
  const comments: string[] = [];
  const parser = new SseParserStream({ onComment: (text) => comments.push(text) });
  const events = await runThrough(parser, chunks);
  return { events, comments, lastEventId: parser.lastEventId };
}

describe("SseParserStream, one stream at every chunking", () => {
  // Every rule that depends on where a read ends, in one stream. Each line is
  // annotated with what the spec makes of it.
  const stream = [
    "\uFEFF", // BOM: dropped (start of stream only)
    ": keep-alive\r\n", // comment, CRLF
    "event: greeting\n", // LF
    "data: first\r", // CR alone ends the line
    "data:  second\r\n", // one space stripped: value " second"; CRLF is ONE line end
    "id: 7\n", // if that CRLF counted twice, event 1 would lose this id
    "\n", // blank: dispatch event 1
    "data:\r", // empty data line: dispatched with data ""
    "id: bad\0id\r\n", // NUL: field ignored, id stays "7"
    "\r", // blank: dispatch event 2
    "data: é€😀 multi\n", // 2-, 3- and 4-byte characters to split
    "retry: 1500\r", // valid retry, attached to this block's event
    "\r", // trailing bare CR: a blank line even though nothing follows
  ].join("");
  const bytes = utf8(stream);
  const expected: SseEvent[] = [
    { data: "first\n second", event: "greeting", id: "7" },
    { data: "", id: "7" },
    { data: "é€😀 multi", id: "7", retry: 1500 },
  ];

  it("parses the whole stream as the spec says", async () => {
    const result = await parseChunks([bytes]);
    assert.deepEqual(result.events, expected);
    assert.deepEqual(result.comments, [" keep-alive"]);
    assert.equal(result.lastEventId, "7");
    assert.deepEqual(parseSseText(stream), expected);
  });

  it("gives the same events at every read size and every split point", async () => {
    let runs = 0;
    for (const [label, chunks] of everyChunking(bytes)) {
      const result = await parseChunks(chunks);
      assert.deepEqual(result.events, expected, label);
      assert.deepEqual(result.comments, [" keep-alive"], label);
      runs++;
    }
    assert.equal(runs, 2 * bytes.length + 1);
  });

  it("gives the same events when fed as strings split anywhere", async () => {
    for (let split = 0; split <= stream.length; split++) {
      const result = await parseChunks([stream.slice(0, split), stream.slice(split)]);
      assert.deepEqual(result.events, expected, `string split at ${split}`);
    }
  });
});

describe("SseParserStream field rules", () => {
  it("ignores retry values that are not all ASCII digits", () => {
    const events = parseSseText(
      "retry: 12a\ndata: a\n\nretry: -5\ndata: b\n\nretry:  7\ndata: c\n\nretry: 1.5\ndata: d\n\nretry:\ndata: e\n\n",
    );
    assert.deepEqual(events, [{ data: "a" }, { data: "b" }, { data: "c" }, { data: "d" }, {
      data: "e",
    }]);
  });

  it("keeps retry on the stream even from a block that dispatched nothing", async () => {
    const parser = new SseParserStream();
    const events = await runThrough(parser, [utf8("retry: 3000\n\ndata: x\n\n")]);
    assert.deepEqual(events, [{ data: "x" }]);
    assert.equal(parser.reconnectionTime, 3000);
  });

  it("treats a line without a colon as a field name with an empty value", () => {
    assert.deepEqual(parseSseText("data\ndata\n\n"), [{ data: "\n" }]);
    assert.deepEqual(parseSseText("data: x\nevent\n\n"), [{ data: "x" }]);
    assert.deepEqual(parseSseText("id: 1\ndata: a\n\nid\ndata: b\n\n"), [
      { data: "a", id: "1" },
      { data: "b", id: "" },
    ]);
  });

  it("discards text after the last blank line at end of stream", async () => {
    assert.deepEqual(parseSseText("data: a\n\ndata: b\n"), [{ data: "a" }]);
    assert.deepEqual(parseSseText("data: a\n\ndata: b"), [{ data: "a" }]);
    const result = await parseChunks([utf8("data: a\n\ndata: b\r\n"), utf8(":unterminated")]);
    assert.deepEqual(result.events, [{ data: "a" }]);
    assert.deepEqual(result.comments, []);
  });

  it("decodes multi-byte UTF-8 split across every pair of reads", async () => {
    const bytes = utf8("data: ü€😀\n\n");
    for (let first = 1; first < bytes.length; first++) {
      for (let second = first + 1; second < bytes.length; second++) {
        const result = await parseChunks(cutAt(bytes, [first, second]));
        assert.deepEqual(result.events, [{ data: "ü€😀" }], `cuts at ${first}, ${second}`);
      }
    }
  });

  it("drops a BOM only at the very start of the stream", async () => {
    const bom = new Uint8Array([0xef, 0xbb, 0xbf]);
    const result = await parseChunks([
      bom.slice(0, 1),
      bom.slice(1),
      utf8("data: a\n\n"),
      bom,
      utf8("data: b\n\n"),
    ]);
    // The second BOM is in the middle: it is part of the field name
    // "\uFEFFdata", an unknown field, so event b has no data and never fires.
    assert.deepEqual(result.events, [{ data: "a" }]);
    assert.deepEqual(parseSseText("\uFEFF\uFEFFdata: x\n\ndata: y\n\n"), [{ data: "y" }]);
    assert.deepEqual(parseSseText("\uFEFFdata: x\n\n"), [{ data: "x" }]);
  });

  it("strips exactly one space after the colon, and none when absent", () => {
    assert.deepEqual(parseSseText("data:x\n\ndata: x\n\ndata:  x\n\ndata:\tx\n\n"), [
      { data: "x" },
      { data: "x" },
      { data: " x" },
      { data: "\tx" },
    ]);
  });

  it("does not dispatch a block without data but keeps its id", async () => {
    const parser = new SseParserStream();
    const events = await runThrough(parser, [utf8("id: 5\nevent: ping\n\ndata: later\n\n")]);
    // The event type is reset by the blank line; the id is not.
    assert.deepEqual(events, [{ data: "later", id: "5" }]);
    assert.equal(parser.lastEventId, "5");
  });

  it("leaves id absent until an id field appears, and ignores ids containing NUL", () => {
    assert.deepEqual(parseSseText("id: a\0b\ndata: x\n\nid: 9\ndata: y\n\nid: \0\ndata: z\n\n"), [
      { data: "x" },
      { data: "y", id: "9" },
      { data: "z", id: "9" },
    ]);
  });

  it("ignores unknown fields and treats field names case-sensitively", () => {
    assert.deepEqual(parseSseText("Data: no\nfoo: bar\ndata: yes\nEVENT: no\n\n"), [{
      data: "yes",
    }]);
  });

  it("reports comment text verbatim after the colon", () => {
    const comments: string[] = [];
    parseSseText(":\n: ping\n::x\n", { onComment: (text) => comments.push(text) });
    assert.deepEqual(comments, ["", " ping", ":x"]);
  });

  it("replaces bytes that are not UTF-8 with U+FFFD", async () => {
    const bytes = new Uint8Array([...utf8("data: a"), 0xff, ...utf8("b\n\ndata: "), 0xe2, 0x82]);
    const result = await parseChunks([bytes, utf8("\n\n")]);
    assert.deepEqual(result.events, [{ data: "a\uFFFDb" }, { data: "\uFFFD" }]);
  });
});

describe("encodeSseEvent and encodeSseComment", () => {
  it("writes id, event, retry, then one data line per line", () => {
    assert.equal(
      encodeSseEvent({ data: "a\r\nb\rc\nd", event: "message", id: "7", retry: 100 }),
      "id: 7\nevent: message\nretry: 100\ndata: a\ndata: b\ndata: c\ndata: d\n\n",
    );
  });

  it("writes empty values as bare field names so they round-trip", () => {
    assert.equal(encodeSseEvent({ data: "" }), "data:\n\n");
    assert.equal(encodeSseEvent({ data: "", id: "" }), "id:\ndata:\n\n");
    assert.deepEqual(parseSseText(encodeSseEvent({ data: "", id: "" })), [{ data: "", id: "" }]);
    assert.deepEqual(parseSseText(encodeSseEvent({ data: "\n" })), [{ data: "\n" }]);
  });

  it("keeps a leading space in a value by writing the separator space", () => {
    const event = { data: " padded ", id: " 1", event: " spaced" };
    assert.deepEqual(parseSseText(encodeSseEvent(event)), [event]);
  });

  it("refuses events that could not be read back", () => {
    assert.throws(() => encodeSseEvent({ data: "x", id: "a\nb" }), RangeError);
    assert.throws(() => encodeSseEvent({ data: "x", id: "a\0b" }), RangeError);
    assert.throws(() => encodeSseEvent({ data: "x", event: "a\rb" }), RangeError);
    assert.throws(() => encodeSseEvent({ data: "x", retry: -1 }), RangeError);
    assert.throws(() => encodeSseEvent({ data: "x", retry: 1.5 }), RangeError);
  });

  it("writes comments that the parser reports back unchanged", () => {
    assert.equal(encodeSseComment(" keep-alive"), ": keep-alive\n");
    const text = encodeSseComment(" two\r\nlines") + "data: x\n\n";
    const comments: string[] = [];
    assert.deepEqual(parseSseText(text, { onComment: (comment) => comments.push(comment) }), [{
      data: "x",
    }]);
    assert.deepEqual(comments, [" two", "lines"]);
  });
});

describe("SseEncoderStream", () => {
  it("encodes each event to one UTF-8 chunk that parses back", async () => {
    const events: SseEvent[] = [{ data: "héllo", id: "1" }, { data: "", event: "ping", id: "2" }];
    const chunks = await runThrough(new SseEncoderStream(), events);
    assert.equal(chunks.length, 2);
    assert.ok(chunks.every((chunk) => chunk instanceof Uint8Array));
    assert.deepEqual((await parseChunks(chunks)).events, events);
  });
});
