import { describe, it } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { JsonlLineStream } from "../../src/framing/jsonl.ts";
import {
  encodeSseEvent,
  parseSseText,
  type SseEvent,
  SseParserStream,
} from "../../src/framing/sse.ts";
import { cutAt, runThrough } from "./chunking.ts";

const utf8 = (text: string) => new TextEncoder().encode(text);
const RUNS = { numRuns: 200 };

/** Text rich in what framers trip on: line breaks, multi-byte characters, colons. */
const tricky = (alphabet: string[]) =>
  fc.string({
    unit: fc.oneof(
      { weight: 3, arbitrary: fc.constantFrom(...alphabet) },
      { weight: 2, arbitrary: fc.string({ unit: "grapheme", maxLength: 1, minLength: 1 }) },
    ),
    maxLength: 40,
  });

/** Cut points for a byte stream of any length (taken modulo its length). */
const cuts = fc.array(fc.nat(), { maxLength: 12 });

describe("JSONL framing properties", () => {
  const line = tricky(["a", "é", "😀", "{", "\r", " "]).map((text) => text.replaceAll("\n", ""));
  const ending = fc.constantFrom("\n", "\r\n");

  it("any chunking of a JSONL byte stream gives the same lines", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(line, ending), { maxLength: 8 }),
        cuts,
        async (entries, offsets) => {
          const bytes = utf8(entries.map(([text, end]) => text + end).join(""));
          const whole = await runThrough(new JsonlLineStream(), [bytes]);
          const chunked = await runThrough(
            new JsonlLineStream(),
            cutAt(bytes, offsets.map((offset) => offset % (bytes.length + 1))),
          );
          assert.deepEqual(chunked, whole);
          // A CR before the LF belongs to the ending; any other CR is content.
          assert.deepEqual(
            whole,
            entries.map(([text, end]) =>
              end === "\n" && text.endsWith("\r") ? text.slice(0, -1) : text
            ),
          );
        },
      ),
      RUNS,
    );
  });
});

describe("SSE framing properties", () => {
  const noBreaks = (text: string) => text.replace(/[\r\n\0]/g, "");
  const event: fc.Arbitrary<SseEvent> = fc.record(
    {
      data: tricky(["\n", "\r", "\r\n", ":", " ", "data: ", "é", "😀", ""]),
      event: tricky(["a", ":", " ", "é"]).map(noBreaks).filter((name) => name !== ""),
      id: tricky(["1", ":", " ", "😀", "\0"]).map(noBreaks),
      retry: fc.nat({ max: 10_000_000 }),
    },
    { requiredKeys: ["data"] },
  );

  /** What a client sees for each encoded event: newlines normalised, ids carried forward. */
  function expectedAfterRoundTrip(events: SseEvent[]): SseEvent[] {
    let lastId: string | undefined;
    return events.map((sent) => {
      const seen: SseEvent = { data: sent.data.replace(/\r\n|\r/g, "\n") };
      if (sent.event !== undefined) seen.event = sent.event;
      if (sent.id !== undefined) lastId = sent.id;
      if (lastId !== undefined) seen.id = lastId;
      if (sent.retry !== undefined) seen.retry = sent.retry;
      return seen;
    });
  }

  it("encode then parse round-trips arbitrary events", () => {
    fc.assert(
      fc.property(fc.array(event, { maxLength: 6 }), (events) => {
        const text = events.map(encodeSseEvent).join("");
        assert.deepEqual(parseSseText(text), expectedAfterRoundTrip(events));
      }),
      RUNS,
    );
  });

  it("any line endings (CRLF, LF, CR) cut anywhere, right after a CR above all, parse the same", async () => {
    const ending = fc.constantFrom("\n", "\r", "\r\n");
    const value = tricky(["a", "é", "😀", ":", " ", "data"]).map(noBreaks);
    const block = fc.record({
      id: fc.option(value, { nil: undefined }),
      lines: fc.array(fc.tuple(value, ending), { minLength: 1, maxLength: 4 }),
      blank: ending,
    });
    await fc.assert(
      fc.asyncProperty(
        fc.array(block, { maxLength: 5 }),
        fc.array(fc.boolean(), { maxLength: 24 }),
        cuts,
        async (blocks, cutAfterCr, offsets) => {
          let text = "";
          const expected: SseEvent[] = [];
          let lastId: string | undefined;
          // A lone CR then a lone LF would be one CRLF ending, not two.
          const end = (ending: string) => text.endsWith("\r") && ending === "\n" ? "\r\n" : ending;
          for (const { id, lines, blank } of blocks) {
            if (id !== undefined) {
              text += `id: ${id}\n`;
              lastId = id;
            }
            for (const [data, ending] of lines) text += `data: ${data}${end(ending)}`;
            text += end(blank);
            const seen: SseEvent = { data: lines.map(([data]) => data).join("\n") };
            if (lastId !== undefined) seen.id = lastId;
            expected.push(seen);
          }
          const bytes = utf8(text);
          // Cut right after the CRs the generator picked: where a CRLF splits in two.
          const afterCr: number[] = [];
          let seenCr = 0;
          bytes.forEach((byte, index) => {
            if (byte === 0x0d && cutAfterCr[seenCr++ % Math.max(1, cutAfterCr.length)]) {
              afterCr.push(index + 1);
            }
          });
          const chunks = cutAt(bytes, [
            ...afterCr,
            ...offsets.map((offset) => offset % (bytes.length + 1)),
          ]);
          assert.deepEqual(parseSseText(text), expected);
          assert.deepEqual(await runThrough(new SseParserStream(), chunks), expected);
        },
      ),
      RUNS,
    );
  });

  it("any chunking of an encoded SSE stream parses to the same events", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(event, { maxLength: 6 }), cuts, async (events, offsets) => {
        const bytes = utf8(events.map(encodeSseEvent).join(""));
        const chunks = cutAt(bytes, offsets.map((offset) => offset % (bytes.length + 1)));
        assert.deepEqual(
          await runThrough(new SseParserStream(), chunks),
          expectedAfterRoundTrip(events),
        );
      }),
      RUNS,
    );
  });
});
