/**
 * Bad input never crashes record or replay and is never silently dropped.
 *
 * Server → client: the fixture server prints the corpus of
 * tests/fixtures/reliability/corpus.ts through `record`; the client gets the
 * bytes verbatim, the cassette keeps each line as a message or raw entry,
 * and `replay` of that cassette prints them again.
 *
 * Client → server: a client sends its own corpus to `replay`; each line gets
 * its defined answer and the next valid request is still answered.
 */
import { before, describe, it } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import { loadCassette } from "../../src/cassette/reader.ts";
import type { Entry } from "../../src/cassette/format.ts";
import { entryForLine } from "../../src/record/frames.ts";
import {
  CAP_PLUS_ONE,
  deepText,
  noise,
  OVERLONG,
  SERVER_CORPUS,
  SERVER_CORPUS_ITEMS,
} from "../fixtures/reliability/corpus.ts";
import { CLI, tempDir } from "../helpers.ts";
import { call, FIXTURE, initialize, LineProcess } from "./_helpers.ts";

const TEN_MB = 10 * 1024 * 1024;
const dir = tempDir("mcp-cassette-bad-");
const cassette = path.join(dir, "bad.cassette.jsonl");

/** The client side of the recorded session: the same script drives record and replay. */
async function script(server: LineProcess) {
  server.send(initialize());
  await server.answer(1);
  server.send({ jsonrpc: "2.0", method: "notifications/initialized" });
  server.send({ jsonrpc: "2.0", id: 2, method: "ping" });
  await server.answer(2);
  server.send(call(3, "echo", { a: 1 }));
  await server.answer(3);
  const beforeCorpus = server.lines.length;
  server.send(call(4, "corpus"));
  await server.answer(4);
  const corpusLines = server.lines.slice(beforeCorpus, -1);
  server.send(call(5, "big"));
  const big = await server.answer(5);
  server.send(call(6, "deep"));
  const deep = await server.answer(6);
  const beforeOverlong = server.lines.length;
  server.send(call(7, "overlong"));
  await server.answer(7, 120_000); // the session goes on past the over-long line
  const overlongLine = server.lines.slice(beforeOverlong).find((line) =>
    line !== "" && !line.includes('"id":7')
  );
  return { corpusLines, big, deep, overlongLine };
}

/** The entry the recorder should have written for each corpus line. */
function expectedEntries(): Pick<
  Entry & { msg?: unknown; text?: string },
  "type" | "msg" | "text"
>[] {
  const decoder = new TextDecoder();
  return SERVER_CORPUS_ITEMS.map((item) => {
    const text = decoder.decode(item.bytes).replace(/\r?\n$/, "");
    const entry = entryForLine(text, "s2c", 0);
    return entry.type === "message"
      ? { type: "message", msg: entry.msg }
      : { type: "raw", text: entry.text };
  });
}

/** The recording both suites use, started once. */
const recording = (async () => {
  const live = new LineProcess([...CLI, "record", "-o", cassette, "--", ...FIXTURE, "serve"], {
    keepBytes: true,
  });
  const recorded = await script(live);
  const exit = await live.finish();
  assert.equal(exit.code, 0, live.stderr);
  return { live, recorded };
})();
recording.catch(() => {}); // reported by the tests that await it

describe("server output corpus through record, then replay", () => {
  let live: LineProcess;
  let recorded: Awaited<ReturnType<typeof script>>;

  before(async () => {
    ({ live, recorded } = await recording);
  });

  it("the client receives every corpus byte verbatim, and the session goes on", () => {
    const stdout = Buffer.concat(live.chunks);
    assert.notEqual(
      stdout.indexOf(Buffer.concat(SERVER_CORPUS)),
      -1,
      "the corpus bytes, unchanged and in order",
    );
    assert.equal(
      (recorded.big.result as { content: { text: string }[] }).content[0].text.length,
      TEN_MB,
    );
    assert.ok(
      live.messages().some((message) => message.id === 6),
      "the 10,000-deep answer was forwarded",
    );
    assert.equal(
      recorded.overlongLine?.length,
      OVERLONG.head.length + CAP_PLUS_ONE + OVERLONG.tail.length,
      "the over-cap line was forwarded whole",
    );
    assert.match(
      live.stderr,
      /a line longer than the cap of 67108864 characters \(s2c\) was forwarded but not recorded/,
    );
    assert.doesNotMatch(
      live.stderr,
      /could not be redacted/,
      "the 10,000-deep answer is redacted and kept whole",
    );
  });

  it("the cassette keeps each corpus line as a message or raw entry, in order", async () => {
    const loaded = await loadCassette(cassette);
    const request = loaded.entries.findIndex((entry) =>
      entry.type === "message" && (entry.msg as { id?: number }).id === 4
    );
    const answer = loaded.entries.findIndex((entry, index) =>
      index > request && entry.type === "message" && entry.dir === "s2c" &&
      (entry.msg as { id?: number }).id === 4 &&
      "result" in (entry.msg as object) && JSON.stringify(entry.msg).includes("corpus done")
    );
    const kept = loaded.entries.slice(request + 1, answer).map((entry) =>
      entry.type === "message"
        ? { type: "message", msg: entry.msg }
        : { type: entry.type, text: (entry as { text?: string }).text }
    );
    assert.deepEqual(kept, expectedEntries());
    const big = loaded.entries.find((entry) =>
      entry.type === "message" && (entry.msg as { id?: number }).id === 5 && entry.dir === "s2c"
    );
    assert.equal(JSON.stringify(big).length > TEN_MB, true);
    const deep = loaded.entries.find((entry) =>
      entry.type === "message" && (entry.msg as { id?: number }).id === 6 && entry.dir === "s2c"
    );
    // Compared as text: node:assert recurses and would overflow on 10,000 levels.
    assert.equal(
      JSON.stringify(deep?.type === "message" && deep.msg),
      JSON.stringify(recorded.deep),
      "the 10,000-deep answer, whole",
    );
    const markers = loaded.entries.filter((entry) =>
      entry.type === "raw" && entry.text.includes("forwarded but not recorded")
    );
    assert.equal(markers.length, 1, "the over-cap line is marked, not silently missing");
    assert.equal(loaded.torn, undefined);
  });

  it("replay of that cassette prints the corpus lines again and answers the rest", async () => {
    const replay = new LineProcess([...CLI, "replay", cassette]);
    const again = await script(replay);
    await replay.finish();
    const expected = expectedEntries();
    assert.equal(again.corpusLines.length, expected.length);
    again.corpusLines.forEach((line, index) => {
      const entry = expected[index];
      if (entry.type === "raw") assert.equal(line, entry.text, SERVER_CORPUS_ITEMS[index].name);
      else assert.deepEqual(JSON.parse(line), entry.msg, SERVER_CORPUS_ITEMS[index].name);
    });
    assert.equal(
      (again.big.result as { content: { text: string }[] }).content[0].text.length,
      TEN_MB,
    );
    assert.equal(
      JSON.stringify(again.deep),
      JSON.stringify(recorded.deep),
      "the 10,000-deep answer, replayed whole",
    );
    assert.match(again.overlongLine ?? "", /forwarded but not recorded/);
  });
});

/** A client corpus item: what is sent, and what must come back (the new lines, parsed). */
interface ClientItem {
  name: string;
  send: Uint8Array | unknown;
  expect: (answers: unknown[]) => void;
  /** How many lines the answer takes (default 1). */
  lines?: number;
}

const bytes = (...parts: (string | number[])[]) =>
  Buffer.concat(
    parts.map((part) => typeof part === "string" ? Buffer.from(part) : Buffer.from(part)),
  );
const errorOf = (code: number, id: unknown = null) => (answers: unknown[]) => {
  const answer = answers[0] as { id: unknown; error: { code: number } };
  assert.equal(answer.error?.code, code, JSON.stringify(answer).slice(0, 300));
  assert.equal(answer.id, id);
};

const CLIENT_CORPUS: ClientItem[] = [
  { name: "malformed JSON", send: bytes('{"jsonrpc":"2.0","id":\n'), expect: errorOf(-32700) },
  { name: "JSON number", send: bytes("42\n"), expect: errorOf(-32600) },
  { name: "JSON string", send: bytes('"text"\n'), expect: errorOf(-32600) },
  { name: "JSON null", send: bytes("null\n"), expect: errorOf(-32600) },
  { name: "empty batch", send: bytes("[]\n"), expect: errorOf(-32600) },
  {
    name: "batch of two requests",
    send: [{ jsonrpc: "2.0", id: "b1", method: "ping" }, {
      jsonrpc: "2.0",
      id: "b2",
      method: "no/such",
    }],
    expect: (answers) => {
      const batch = answers[0] as { id: string; result?: unknown; error?: { code: number } }[];
      assert.deepEqual(batch.map((answer) => answer.id).sort(), ["b1", "b2"]);
      assert.equal(batch.find((answer) => answer.id === "b2")?.error?.code, -32001);
    },
  },
  {
    name: "batch with a member that is not an object",
    send: [1, { jsonrpc: "2.0", id: "b3", method: "ping" }],
    expect: (answers) => {
      const batch = answers[0] as { id: unknown; error?: { code: number } }[];
      assert.equal(batch.length, 2);
      assert.equal(batch.find((answer) => answer.id === null)?.error?.code, -32600);
      assert.ok(batch.some((answer) => answer.id === "b3"));
    },
  },
  {
    name: "invalid UTF-8 inside a request",
    send: bytes(
      '{"jsonrpc":"2.0","id":"u8","method":"tools/call","params":{"name":"unrecorded","arguments":{"a":"',
      [0xff, 0xfe],
      '"}}}\n',
    ),
    expect: errorOf(-32001, "u8"),
  },
  { name: "invalid UTF-8 line", send: bytes([0xff, 0xfe, 0xfd, 0x0a]), expect: errorOf(-32700) },
  {
    name: "NUL after a request",
    send: bytes('{"jsonrpc":"2.0","id":"nul","method":"ping"}', [0], "\n"),
    expect: errorOf(-32700),
  },
  { name: "NUL bytes alone", send: bytes([0, 0, 0, 0x0a]), expect: errorOf(-32700) },
  { name: "binary noise", send: bytes(noise(500, 11), "\n"), expect: errorOf(-32700) },
  {
    name: "duplicate ids in flight",
    send: bytes(
      JSON.stringify(call("dup", "echo", { a: 1 })) + "\n" +
        JSON.stringify(call("dup", "echo", { a: 1 })) + "\n",
    ),
    lines: 4,
    expect: (answers) => {
      const responses = (answers as { id?: string; method?: string; result?: unknown }[]).filter((
        answer,
      ) => answer.method === undefined);
      assert.deepEqual(responses.map((answer) => answer.id), ["dup", "dup"]);
      assert.ok(responses.every((answer) => answer.result !== undefined));
    },
  },
  {
    name: "id that is an object",
    send: { jsonrpc: "2.0", id: { x: 1 }, method: "ping" },
    expect: errorOf(-32600),
  },
  {
    name: "id that is a boolean",
    send: { jsonrpc: "2.0", id: true, method: "ping" },
    expect: errorOf(-32600),
  },
  {
    name: "id that is null",
    send: { jsonrpc: "2.0", id: null, method: "ping" },
    expect: errorOf(-32600),
  },
  {
    name: "response to a request never made",
    send: { jsonrpc: "2.0", id: 777, result: {} },
    lines: 0,
    expect: () => {},
  },
  {
    name: "unknown notification",
    send: { jsonrpc: "2.0", method: "notifications/nobody" },
    lines: 0,
    expect: () => {},
  },
  {
    name: "unknown method",
    send: { jsonrpc: "2.0", id: "um", method: "no/such" },
    expect: errorOf(-32001, "um"),
  },
  {
    name: "10 MB request",
    send: call("big", "unrecorded", { a: "x".repeat(TEN_MB) }),
    expect: (answers) => {
      errorOf(-32001, "big")(answers);
      // The diagnosis names the difference without echoing 10 MB back.
      assert.ok(
        JSON.stringify(answers[0]).length < 64 * 1024,
        `answer of ${JSON.stringify(answers[0]).length} chars`,
      );
    },
  },
  {
    name: "10,000-deep nesting",
    send: bytes(
      `{"jsonrpc":"2.0","id":"deep","method":"tools/call","params":{"name":"unrecorded","arguments":{"a":${
        deepText(10_000)
      }}}}\n`,
    ),
    expect: errorOf(-32001, "deep"),
  },
  {
    name: "CRLF line ending",
    send: bytes('{"jsonrpc":"2.0","id":"crlf","method":"ping"}\r\n'),
    expect: (answers) => assert.equal((answers[0] as { id: string }).id, "crlf"),
  },
  {
    name: "line over the 64 MiB cap",
    send: bytes("a".repeat(CAP_PLUS_ONE), "\n"),
    expect: errorOf(-32600),
  },
];

describe("client input corpus to replay", () => {
  it("each line gets its defined answer, and the next request is still answered", async () => {
    await recording;
    const replay = new LineProcess([...CLI, "replay", cassette]);
    replay.send(initialize(1));
    await replay.answer(1);
    replay.send({ jsonrpc: "2.0", method: "notifications/initialized" });
    let ping = 0;
    for (const item of CLIENT_CORPUS) {
      const start = replay.lines.length;
      const want = item.lines ?? 1;
      replay.send(item.send);
      await replay.until(
        () => replay.lines.length >= start + want,
        `the answer to "${item.name}"`,
        120_000,
      );
      const answers = replay.lines.slice(start, start + want).map((line) => JSON.parse(line));
      try {
        item.expect(answers);
      } catch (error) {
        throw new Error(`${item.name}: ${(error as Error).message}`);
      }
      const id = `after-${++ping}`;
      replay.send({ jsonrpc: "2.0", id, method: "ping" });
      await replay.answer(id);
      // Nothing else came back for the item: the ping's answer is the only new line.
      assert.equal(replay.lines.length, start + want + 1, `${item.name}: unexpected extra output`);
    }
    const exit = await replay.finish();
    assert.equal(exit.code, 3, "misses were answered, so replay exits 3");
    assert.match(replay.stderr, /never asked.*|777/);
  });
});
