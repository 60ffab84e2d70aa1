/**
 * A frame that cannot be written to the cassette is still forwarded, the
 * cassette marks its place, and the session goes on. In practice such a frame
 * is one nested too deeply for the runtime's JSON.stringify; where that depth
 * lies depends on V8's internals (a redacted copy 100,000 levels deep failed
 * in one build and not after an unrelated change), so the failure is made
 * certain here: the recorder runs in process, in front of the real fixture
 * server over real pipes (stdio) or sockets (HTTP), with the real redactor
 * wrapped so that its result for the answer to request 2 cannot be serialised.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import { loadCassette } from "../../src/cassette/reader.ts";
import { recordStdio } from "../../src/record/stdio.ts";
import { recordHttp } from "../../src/record/http.ts";
import { createRedactor } from "../../src/redact/mod.ts";
import type { Redactor } from "../../src/redact/mod.ts";
import type { Json } from "../../src/jsonrpc/messages.ts";
import { tempDir } from "../helpers.ts";
import { call, FIXTURE, initialize, pollUntil } from "./_helpers.ts";
import { callMessage, openSession, post, startHttpFixture } from "./_http.ts";

/** The real redactor, except that its answer to request 2 cannot be serialised. */
async function unwritableAnswerTo2(): Promise<Redactor> {
  const real = await createRedactor();
  return {
    text: (text, dir) => real.text(text, dir),
    headers: (headers) => real.headers(headers),
    url: (pathAndQuery) => real.url(pathAndQuery),
    info: () => real.info(),
    findings: (value, dir) => real.findings(value, dir),
    messageWithValues: (msg, dir) => real.messageWithValues(msg, dir),
    // Every frame goes through message() below, none is passed on its text.
    keepsLine: () => false,
    message(msg: Json, dir): Json {
      const redacted = real.message(msg, dir);
      // The answer to call 2: a value JSON.stringify refuses, as it refuses a frame too deep.
      if (dir === "s2c" && (msg as { id?: unknown }).id === 2) {
        return { ...(redacted as object), big: 1n } as unknown as Json;
      }
      return redacted;
    },
  };
}

/** The marker's place in the cassette, and that the answer to 3 was recorded after it. */
async function assertMarkedThenRecorded(cassette: string, markerText: RegExp): Promise<void> {
  const loaded = await loadCassette(cassette);
  const texts = loaded.entries.map((entry) =>
    entry.type === "raw" ? entry.text : entry.type === "message" ? JSON.stringify(entry.msg) : ""
  );
  const marker = texts.findIndex((text) => markerText.test(text));
  assert.ok(marker >= 0, "the unwritable frame's place is marked");
  assert.ok(
    texts.slice(marker + 1).some((text) => text.includes('"id":3') && text.includes('"result"')),
    "the next answer is recorded after it",
  );
}

test("stdio: a frame that cannot be serialised is forwarded, marked in the cassette, and the session goes on", async () => {
  const cassette = path.join(tempDir("mcp-cassette-unwritable-"), "unwritable.cassette.jsonl");
  const redactor = await unwritableAnswerTo2();
  const encoder = new TextEncoder();
  let send!: (text: string) => void;
  let end!: () => void;
  const input = new ReadableStream<Uint8Array>({
    start(controller) {
      send = (text) => controller.enqueue(encoder.encode(text + "\n"));
      end = () => controller.close();
    },
  });
  let received = "";
  const decoder = new TextDecoder();
  const answered = (id: number) =>
    received.split("\n").some((line) => line.startsWith(`{"jsonrpc":"2.0","id":${id},`));
  const output = new WritableStream<Uint8Array>({
    write: (chunk) => void (received += decoder.decode(chunk, { stream: true })),
  });
  const logged: string[] = [];
  const recording = recordStdio({
    command: FIXTURE.concat("serve"),
    output: cassette,
    redactor,
    input,
    output_stream: output,
    log: (line) => logged.push(line),
  });
  send(JSON.stringify(initialize()));
  await pollUntil(() => answered(1), "the initialize answer", 30_000);
  send(JSON.stringify(call(2, "echo", { a: 1 })));
  await pollUntil(() => answered(2), "the answer that cannot be written", 30_000);
  send(JSON.stringify(call(3, "echo", { b: 2 })));
  await pollUntil(() => answered(3), "the next answer", 30_000);
  end();
  assert.equal(await recording, 0);

  await assertMarkedThenRecorded(
    cassette,
    /^\[mcp-cassette: a frame of \d+ characters that could not be written \(.+\) was forwarded but not recorded\]$/,
  );
  assert.ok(
    logged.some((line) =>
      /a frame of \d+ characters that could not be written .* \(s2c\) was forwarded but not recorded/
        .test(line)
    ),
    "and said on the log",
  );
});

test("HTTP: a frame that cannot be serialised is forwarded, marked in the cassette, and the exchange goes on", async () => {
  const cassette = path.join(tempDir("mcp-cassette-unwritable-"), "unwritable-http.cassette.jsonl");
  const fixture = await startHttpFixture();
  let stop!: () => void;
  const until = new Promise<void>((resolve) => (stop = resolve));
  const logged: string[] = [];
  let url = "";
  let listening!: () => void;
  const ready = new Promise<void>((resolve) => (listening = resolve));
  const recording = recordHttp({
    url: fixture.url,
    output: cassette,
    redactor: await unwritableAnswerTo2(),
    until,
    log: (line) => logged.push(line),
    onListening: (found) => {
      url = found;
      listening();
    },
  });
  try {
    await ready;
    const sessionId = await openSession(url, 1);
    const second = await post(url, callMessage(2, "echo", { a: 1 }), { sessionId });
    assert.equal(second.status, 200);
    assert.equal(second.messages[0]?.id, 2, "the answer reached the client");
    const third = await post(url, callMessage(3, "echo", { b: 2 }), { sessionId });
    assert.equal(third.messages[0]?.id, 3, "and the next one");
  } finally {
    stop();
    assert.equal(await recording, 0);
    await fixture.stop("SIGTERM");
  }
  await assertMarkedThenRecorded(
    cassette,
    /^\[mcp-cassette: a frame that could not be recorded \(.+\) was forwarded but not recorded\]$/,
  );
  assert.ok(
    logged.some((line) =>
      /a frame that could not be recorded .* \(s2c\) was forwarded but not recorded/.test(line)
    ),
    "and said on the log",
  );
});
