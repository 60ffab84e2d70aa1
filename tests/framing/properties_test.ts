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
