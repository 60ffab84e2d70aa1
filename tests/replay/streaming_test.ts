/**
 * A replay that serves while it reads the cassette answers exactly as one
 * that read it whole: same answers, same misses, same report, however the
 * file's batches and the client's requests interleave (docs/replay.md
 * "Start-up"). The batches are held back by the test, so "answered before
 * the rest was read" is an observed fact, not a timing.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { ReplayEngine } from "../../src/replay/engine.ts";
import type { ReplaySession } from "../../src/replay/session.ts";
import type { Outlet } from "../../src/replay/outlet.ts";
import { loadCassette } from "../../src/cassette/reader.ts";
import type { CassetteStream, LocatedEntry } from "../../src/cassette/reader.ts";
import type { CassetteHeader } from "../../src/cassette/format.ts";
import type { JsonRpcMessage } from "../../src/jsonrpc/messages.ts";
import { ROOT } from "../helpers.ts";

/** A turn of the event loop: the engine reads what the test let through. */
function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** Batches the test lets through one at a time. */
class HeldBatches {
  #permits = 0;
  #wake: (() => void) | undefined;
  left: number;

  constructor(readonly batches: LocatedEntry[][]) {
    this.left = batches.length;
  }

  release(count = 1): void {
    this.#permits += count;
    this.#wake?.();
  }

  async *stream(): AsyncGenerator<LocatedEntry[]> {
    for (const batch of this.batches) {
      while (this.#permits === 0) await new Promise<void>((wake) => (this.#wake = wake));
      this.#permits--;
      this.left--;
      yield batch;
    }
  }
}

function streamOf(header: CassetteHeader, held: HeldBatches): CassetteStream {
  return { path: "held.cassette.jsonl", header, batches: held.stream() };
}

/** An outlet that keeps every text sent. */
function collector(): { outlet: Outlet; sent: string[] } {
  const sent: string[] = [];
  const outlet: Outlet = {
    send: (message, _sse, text) => {
      sent.push(text ?? JSON.stringify(message));
      return Promise.resolve();
    },
    raw: (text) => {
      sent.push(text);
      return Promise.resolve();
    },
    fault: () => Promise.resolve(false),
  };
  return { outlet, sent };
}

/** Sends one message and lets batches through until it is served. */
async function serveOne(
  session: ReplaySession,
  message: JsonRpcMessage,
  outlet: Outlet,
  held: HeldBatches,
) {
  let done = false;
  const work = session.receive(message, outlet).finally(() => (done = true));
  for (let turn = 0; turn < 3; turn++) await nextTurn();
  if (held.left > 0) seen[done ? "early" : "waited"]++;
  while (!done && held.left > 0) {
    held.release();
    await nextTurn();
    await nextTurn();
  }
  await work;
}

let collected = collector();
/** How often a message was served before the file was read, and how often it had to wait. */
const seen = { early: 0, waited: 0 };

// ---------------------------------------------------------------------------
// A real recording, held back after its first lines.

const EVERYTHING = `${ROOT}/tests/interop/golden/everything.cassette.jsonl`;

function batchesOf(entries: LocatedEntry[], size: number): LocatedEntry[][] {
  const batches: LocatedEntry[][] = [];
  for (let at = 0; at < entries.length; at += size) batches.push(entries.slice(at, at + size));
  return batches;
}

test("the handshake is answered while the rest of the file is held back", async () => {
  const cassette = await loadCassette(EVERYTHING);
  const held = new HeldBatches(batchesOf(cassette.entries, 4));
  held.release(); // the first batch: read before the engine is handed over
  const engine = await ReplayEngine.streaming(streamOf(cassette.header, held));
  const session = engine.openSession();
  collected = collector();
  const initialize = cassette.entries.find((entry) =>
    entry.type === "message" && (entry.msg as JsonRpcMessage).method === "initialize"
  )!;
  assert.ok(initialize.line < 6, "the golden cassette starts with initialize");
  await session.receive(
    initialize.type === "message" ? initialize.msg as JsonRpcMessage : {},
    collected.outlet,
  );
  assert.equal(collected.sent.length, 1, "initialize is answered");
  assert.match(collected.sent[0], /"serverInfo"/);
  assert.equal(engine.complete, false, "…before the rest of the file was read");
  assert.ok(held.left > 3, `most batches are still held (${held.left} left)`);

  // A request recorded at the end, sent out of its recorded order, waits for the rest of
  // the file: the read-only hints of the calls recorded before it hold only once the whole
  // recording agrees (docs/replay.md, causal order). So does a miss.
  const lastCall = [...cassette.entries].reverse().find((entry) =>
    entry.type === "message" && entry.dir === "c2s" &&
    (entry.msg as JsonRpcMessage).method === "tools/call"
  )!;
  let answered = false;
  const waiting = session.receive(
    { ...(lastCall.type === "message" ? lastCall.msg as JsonRpcMessage : {}), id: 999 },
    collected.outlet,
  ).then(() => (answered = true));
  let missed = false;
  const unknown = { jsonrpc: "2.0", id: 1000, method: "tools/call", params: { name: "nope" } };
  const miss = session.receive(unknown as JsonRpcMessage, collected.outlet).then(
    () => (missed = true),
  );
  for (let turn = 0; turn < 5; turn++) await nextTurn();
  assert.equal(answered, false, "a request decided further on waits for the rest");
  assert.equal(missed, false, "not a miss while a batch is unread");
  held.release(held.left - 1);
  for (let turn = 0; turn < 5; turn++) await nextTurn();
  assert.equal(missed, false, "not a miss while a batch is unread");
  held.release();
  await waiting;
  await miss;
  assert.equal(engine.complete, true);
  const sent = collected.sent.slice(-2).join("\n");
  assert.match(sent, /"id":999/);
  assert.match(sent, /"id":1000,"error"/);
});

// ---------------------------------------------------------------------------
// Random recordings, random clients: streaming and whole-file replay agree.

const TOOLS = ["add", "get", "peek", "bump"];
/** A call; when recorded, `note` adds a log message before its answer (1) or after it (2). */
type Call = { tool: number; arg: number; note: number };
const call = fc.record({ tool: fc.nat(3), arg: fc.nat(1), note: fc.nat(2) });

const HEADER: CassetteHeader = {
  format: "mcp-cassette",
  version: 2,
  created: "2026-12-01T00:00:00.000Z",
  transport: "stdio",
  server: { command: ["fake"] },
} as CassetteHeader;

function request(id: number, method: string, params?: unknown): JsonRpcMessage {
  return (params === undefined
    ? { jsonrpc: "2.0", id, method }
    : { jsonrpc: "2.0", id, method, params }) as JsonRpcMessage;
}

function callMessage(id: number, { tool, arg }: Call): JsonRpcMessage {
  return request(id, "tools/call", { name: TOOLS[tool], arguments: { n: arg } });
}

/** Tools `peek` and, from a second list on, `get` are marked read-only. */
function toolList(withGet: boolean) {
  return {
    tools: TOOLS.map((name) => ({
      name,
      inputSchema: { type: "object" },
      ...(name === "peek" || (withGet && name === "get")
        ? { annotations: { readOnlyHint: true } }
        : {}),
    })),
  };
}

/** A recording: handshake, a list, calls, and maybe a second list half way. */
function recording(calls: Call[], secondList: boolean): LocatedEntry[] {
  const entries: LocatedEntry[] = [];
  let t = 0;
  const add = (dir: "c2s" | "s2c", msg: unknown) =>
    entries.push({ type: "message", t: t++, dir, msg, line: entries.length + 2 } as LocatedEntry);
  add("c2s", request(0, "initialize", { protocolVersion: "2025-11-25", capabilities: {} }));
  add("s2c", { jsonrpc: "2.0", id: 0, result: { protocolVersion: "2025-11-25", serverInfo: {} } });
  add("c2s", { jsonrpc: "2.0", method: "notifications/initialized" });
  add("c2s", request(1, "tools/list"));
  add("s2c", { jsonrpc: "2.0", id: 1, result: toolList(false) });
  calls.forEach((recorded, index) => {
    if (secondList && index === Math.floor(calls.length / 3)) {
      add("c2s", request(5000, "tools/list"));
      add("s2c", { jsonrpc: "2.0", id: 5000, result: toolList(true) });
    }
    add("c2s", callMessage(index + 2, recorded));
    const text = `answer ${index}`;
    const log = {
      jsonrpc: "2.0",
      method: "notifications/message",
      params: { level: "info", data: `log ${index}` },
    };
    if (recorded.note === 1) add("s2c", log);
    add("s2c", { jsonrpc: "2.0", id: index + 2, result: { content: [{ type: "text", text }] } });
    if (recorded.note === 2) add("s2c", log);
  });
  return entries;
}

/** What a client sees and the report says, served whole or streamed in `sizes` batches. */
async function replay(
  entries: LocatedEntry[],
  live: Call[],
  sizes?: number[],
  releases?: number[],
) {
  collected = collector();
  const copy = () => entries.map((entry) => structuredClone(entry));
  let engine: ReplayEngine;
  let held: HeldBatches | undefined;
  if (!sizes) engine = new ReplayEngine({ path: "whole", header: HEADER, entries: copy() });
  else {
    const all = copy();
    const batches: LocatedEntry[][] = [];
    for (let at = 0, i = 0; at < all.length; i++) {
      const size = Math.max(1, sizes[i % sizes.length]);
      batches.push(all.slice(at, at + size));
      at += size;
    }
    held = new HeldBatches(batches);
    held.release();
    engine = await ReplayEngine.streaming(streamOf(HEADER, held), {});
  }
  const session = engine.openSession();
  const messages: JsonRpcMessage[] = [
    request(0, "initialize", { protocolVersion: "2025-11-25", capabilities: {} }),
    { jsonrpc: "2.0", method: "notifications/initialized" } as JsonRpcMessage,
    request(1, "tools/list"),
    ...live.map((c, index) => callMessage(100 + index, c)),
  ];
  for (const [index, message] of messages.entries()) {
    if (held) {
      held.release(releases?.[index % releases.length] ?? 0);
      await serveOne(session, message, collected.outlet, held);
    } else await session.receive(message, collected.outlet);
  }
  if (held) held.release(held.left);
  await engine.loaded;
  const report = engine.finish();
  return { sent: collected.sent, report: JSON.stringify({ ...report, cassette: undefined }) };
}

test("streamed and whole-file replay give the same answers and report (property)", async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.array(call, { minLength: 1, maxLength: 14 }),
      // Mostly calls the recording holds (a miss waits for the whole file).
      fc.array(fc.oneof({ arbitrary: fc.nat(13), weight: 4 }, { arbitrary: call, weight: 1 }), {
        maxLength: 14,
      }),
      fc.boolean(),
      fc.array(fc.integer({ min: 1, max: 6 }), { minLength: 1, maxLength: 5 }),
      fc.array(fc.nat(2), { minLength: 1, maxLength: 5 }),
      async (recorded, asked, secondList, sizes, releases) => {
        const entries = recording(recorded, secondList);
        const live = asked.map((pick) =>
          typeof pick === "number" ? recorded[pick % recorded.length] : pick
        );
        const whole = await replay(entries, live);
        const streamed = await replay(entries, live, sizes, releases);
        assert.deepEqual(streamed.sent, whole.sent);
        assert.equal(streamed.report, whole.report);
      },
    ),
    { numRuns: 1000 },
  );
  // Both paths ran: the property is not only about whole-file replay.
  assert.ok(seen.early > 100 && seen.waited > 100, JSON.stringify(seen));
});

test("a request a later tools/list marks read-only does not decide early what it cannot", async () => {
  // peek is read-only; get becomes read-only only at the second tools/list,
  // after the first get. Live: get, then peek. While the file is read, the
  // first get counts as history, so the second peek recording looks exact;
  // once the file is read, both peek recordings share one history, and the
  // first, unused, answers. The streamed replay must not have answered early.
  const [peek, get, other] = [{ tool: 2, arg: 0, note: 0 }, { tool: 1, arg: 0, note: 0 }, {
    tool: 2,
    arg: 1,
    note: 0,
  }];
  const add = { tool: 0, arg: 0, note: 0 };
  const entries = recording([peek, get, other, peek, add, add], true);
  const whole = await replay(entries, [get, peek]);
  const streamed = await replay(entries, [get, peek], [1], [0]);
  assert.deepEqual(streamed.sent, whole.sent);
  assert.match(whole.sent.at(-1)!, /answer 0/, "the first peek recording answers");
});

/** A streamed engine over `entries` in batches of one entry, only the first let through. */
async function heldSession(entries: LocatedEntry[]) {
  const held = new HeldBatches(entries.map((entry) => [structuredClone(entry)]));
  held.release();
  const engine = await ReplayEngine.streaming(streamOf(HEADER, held), {});
  return { engine, session: engine.openSession(), held };
}

const HANDSHAKE: JsonRpcMessage[] = [
  request(0, "initialize", { protocolVersion: "2025-11-25", capabilities: {} }),
  { jsonrpc: "2.0", method: "notifications/initialized" } as JsonRpcMessage,
  request(1, "tools/list"),
];

test("a repeat is not decided while a later recording of the request may be unread", async () => {
  const add = { tool: 0, arg: 0, note: 0 };
  const entries = recording(
    [add, { tool: 2, arg: 0, note: 0 }, add, { tool: 3, arg: 0, note: 0 }],
    false,
  );
  const { session, held } = await heldSession(entries);
  collected = collector();
  for (const message of HANDSHAKE) await serveOne(session, message, collected.outlet, held);
  await serveOne(session, callMessage(100, add), collected.outlet, held);
  assert.match(collected.sent.at(-1)!, /answer 0/);
  assert.ok(held.left > 1, "the second recording of the call is not read yet");
  await serveOne(session, callMessage(101, add), collected.outlet, held);
  assert.match(collected.sent.at(-1)!, /answer 2/, "the second recording, not the first again");
});

test("a message that could be answered at once still waits behind one that came first", async () => {
  const [add, bump] = [{ tool: 0, arg: 0, note: 0 }, { tool: 3, arg: 0, note: 0 }];
  const entries = recording([add, bump, add, { tool: 2, arg: 1, note: 0 }], false);
  const { session, held } = await heldSession(entries);
  collected = collector();
  for (const message of HANDSHAKE) await serveOne(session, message, collected.outlet, held);
  held.release(3); // up to bump's request: the first add recording is complete, the second unread
  for (let turn = 0; turn < 5; turn++) await nextTurn();
  // bump first: its recording came after a call this client has not made, so
  // it waits for the whole file; the call after it must wait behind it.
  const first = session.receive(callMessage(100, bump), collected.outlet);
  const second = session.receive(callMessage(101, add), collected.outlet);
  for (let turn = 0; turn < 5; turn++) await nextTurn();
  held.release(held.left);
  await Promise.all([first, second]);
  assert.match(collected.sent.at(-1)!, /"id":101.*answer 2/, "add follows bump, as it came");
});
