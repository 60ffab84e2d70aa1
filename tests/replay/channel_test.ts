/**
 * The HTTP replay's SSE stream holds back for a slow client, as stdio does:
 * past MAX_QUEUED_BYTES unread, the replay waits until the client has read.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { MAX_QUEUED_BYTES, SseChannel } from "../../src/replay/http/channel.ts";

test("an SSE channel counts what the client has not read, and drained() waits for it", async () => {
  const channel = new SseChannel();
  const data = "x".repeat(64 * 1024);
  let written = 0;
  while (channel.queuedBytes <= MAX_QUEUED_BYTES) {
    channel.write({ data });
    written++;
  }
  assert.ok(channel.queuedBytes > MAX_QUEUED_BYTES, `${channel.queuedBytes} bytes queued`);
  let drained = false;
  const waiting = channel.drained().then(() => (drained = true));
  await new Promise((resolve) => setTimeout(resolve, 20));
  assert.equal(drained, false, "nothing was read: the writer still waits");
  const reader = channel.body.getReader();
  for (let read = 0; read < written; read++) await reader.read();
  const pending = reader.read(); // Reading on an empty queue tells the channel all was taken.
  await waiting;
  assert.equal(drained, true);
  assert.equal(channel.queuedBytes, 0);
  channel.close();
  await pending;
});

test("a closed channel never holds a writer back", async () => {
  const channel = new SseChannel();
  for (let i = 0; i < 20; i++) channel.write({ data: "y".repeat(128 * 1024) });
  const waiting = channel.drained();
  await channel.body.cancel();
  await waiting;
  assert.equal(channel.closed, true);
});
