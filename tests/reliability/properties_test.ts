/**
 * Properties of the cassette codec and of request fingerprints, checked on
 * generated inputs. (Framing and SSE properties: tests/framing/properties_test.ts;
 * redaction properties: tests/redact/property_test.ts.)
 */
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import fc from "fast-check";
import { CassetteWriter } from "../../src/cassette/writer.ts";
import { loadCassette } from "../../src/cassette/reader.ts";
import { makeHeader } from "../../src/cassette/format.ts";
import type { Entry } from "../../src/cassette/format.ts";
import { normaliseParams, requestKey, targetName } from "../../src/match/fingerprint.ts";
import { entryForLine, isBareJson, messageEntryLine } from "../../src/record/frames.ts";
import { stableStringify } from "../../src/json/values.ts";
import type { JsonRpcMessage } from "../../src/jsonrpc/messages.ts";
import { tempDir } from "../helpers.ts";

const RUNS = { numRuns: 100 };
const dir = tempDir("mcp-cassette-props-");

/** Text with what a codec trips on: newlines, quotes, NUL, lone surrogates, astral characters. */
const text = fc.oneof(
  fc.string({ unit: "binary", maxLength: 30 }),
  fc.string({
    unit: fc.constantFrom("\n", "\r", "\u0000", '"', "\\", "\ud800", "😀", "é", "a"),
    maxLength: 20,
  }),
);
const json = fc.jsonValue({ maxDepth: 4 });
const t = fc.double({ noNaN: true, noDefaultInfinity: true, min: 0, max: 1e9 });
const dir2 = fc.constantFrom("c2s" as const, "s2c" as const);
const session = fc.option(fc.constantFrom("default", "launch-2", "s-1"), { nil: undefined });

const entry: fc.Arbitrary<Entry> = fc.oneof(
  fc.record({ type: fc.constant("message" as const), t, dir: dir2, msg: json, session }, {
    requiredKeys: ["type", "t", "dir", "msg"],
  }),
  fc.record({ type: fc.constant("raw" as const), t, dir: dir2, text, session }, {
    requiredKeys: ["type", "t", "dir", "text"],
  }),
  fc.record({
    type: fc.constant("session" as const),
    t,
    session: fc.constantFrom("default", "launch-2"),
    event: fc.constantFrom("start" as const, "end" as const),
    exitCode: fc.option(fc.integer({ min: 0, max: 255 }), { nil: undefined }),
  }, { requiredKeys: ["type", "t", "session", "event"] }),
) as fc.Arbitrary<Entry>;

/** What JSON keeps of a value (-0 becomes 0, undefined members vanish). */
const viaJson = (value: unknown) => JSON.parse(JSON.stringify(value));

describe("cassette codec", () => {
  let file = 0;
  it("CassetteWriter then loadCassette gives back every entry", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(entry, { maxLength: 20 }), async (entries) => {
        const cassette = path.join(dir, `round-${file++}.cassette.jsonl`);
        const writer = await CassetteWriter.open(cassette, {
          header: makeHeader({ transport: "stdio", server: { command: ["x"] } }),
        });
        for (const item of entries) writer.append(item);
        await writer.close();
        const loaded = await loadCassette(cassette);
        assert.equal(loaded.torn, undefined);
        assert.deepEqual(loaded.entries.map(({ line: _line, ...rest }) => rest), viaJson(entries));
        assert.deepEqual(
          loaded.entries.map((item) => item.line),
          entries.map((_, index) => index + 2),
        );
      }),
      RUNS,
    );
  });
});

describe("a frame kept as its own text", () => {
  const container = fc.oneof(
    fc.dictionary(fc.string(), json, { maxKeys: 5 }),
    fc.array(json, { maxLength: 5 }),
  );
  it("reads back as the entry the recorder would have serialised", () => {
    fc.assert(
      fc.property(container, fc.boolean(), dir2, t, session, (value, spaced, dir, at, where) => {
        // Any JSON layout within the line: spaced out as a person might write it.
        const line = spaced
          ? JSON.stringify(value, null, 1).replace(/\n/g, " ")
          : JSON.stringify(value);
        assert.ok(isBareJson(line));
        const kept = messageEntryLine(line, dir, at, where);
        assert.ok(kept.endsWith("\n") && !kept.slice(0, -1).includes("\n"));
        assert.deepEqual(JSON.parse(kept), viaJson(entryForLine(line, dir, at, where)));
        assert.equal(
          kept,
          spaced ? kept : JSON.stringify(entryForLine(line, dir, at, where)) + "\n",
        );
      }),
      RUNS,
    );
  });

  it("is never taken for text with anything around its brackets", () => {
    for (
      const line of [
        ' {"a":1}',
        '{"a":1} ',
        "\ufeff{}",
        "\u00a0[]",
        '"text"',
        "42",
        "{",
        "}",
        '{"a":1,\r"b":2}',
      ]
    ) {
      assert.equal(isBareJson(line), false, JSON.stringify(line));
    }
  });
});

/** The same JSON with every object's keys in another order. */
function shuffled(value: unknown, seed: number): unknown {
  if (Array.isArray(value)) return value.map((item, index) => shuffled(item, seed + index));
  if (value === null || typeof value !== "object") return value;
  const keys = Object.keys(value);
  const order = keys.map((key, index) => ({
    key,
    rank: (index * 7919 + seed * 104729) % (keys.length + 13),
  }))
    .sort((a, b) => a.rank - b.rank || (a.key < b.key ? 1 : -1));
  return Object.fromEntries(
    order.map(({ key }) => [key, shuffled((value as Record<string, unknown>)[key], seed + 1)]),
  );
}

/** Puts a `_meta` into every object of a value. */
function withMeta(value: unknown, meta: unknown): unknown {
  if (Array.isArray(value)) return value.map((item) => withMeta(item, meta));
  if (value === null || typeof value !== "object") return value;
  // Built from entries: each key becomes an own property. Assigning one named
  // "__proto__" would set the prototype instead, and the key would be lost.
  const entries = Object.entries(value).filter(([key]) => key !== "_meta").map((
    [key, item],
  ) => [key, withMeta(item, meta)]);
  return Object.fromEntries([["_meta", meta], ...entries]);
}

describe("request fingerprints", () => {
  const name = fc.string({ minLength: 1, maxLength: 8 });
  const args = fc.dictionary(fc.string({ maxLength: 6 }).filter((key) => key !== "_meta"), json, {
    maxKeys: 5,
  });
  const method = fc.constantFrom(
    "tools/call",
    "prompts/get",
    "resources/read",
    "tools/list",
    "custom/thing",
  );
  const request = (
    m: string,
    n: string,
    a: unknown,
    extra: Record<string, unknown> = {},
  ): JsonRpcMessage =>
    ({
      jsonrpc: "2.0",
      id: 1,
      method: m,
      params: { name: n, uri: n, arguments: a, ...extra },
    }) as JsonRpcMessage;

  it("key order never changes a key", () => {
    fc.assert(
      fc.property(method, name, args, fc.nat(), (m, n, a, seed) => {
        const message = request(m, n, a);
        assert.equal(
          requestKey(shuffled(message, seed) as JsonRpcMessage).key,
          requestKey(message).key,
        );
      }),
      RUNS,
    );
  });

  it("_meta anywhere, cursor and progressToken never change a key", () => {
    fc.assert(
      fc.property(method, name, args, json, json, json, (m, n, a, meta, cursor, token) => {
        const plain = requestKey(request(m, n, a)).key;
        const noisy = request(m, n, withMeta(a, meta), {
          _meta: { progressToken: token },
          cursor,
          progressToken: token,
        });
        assert.equal(requestKey(noisy).key, plain);
      }),
      RUNS,
    );
  });

  it("different arguments give a different key", () => {
    fc.assert(
      fc.property(
        method,
        name,
        args,
        fc.string({ minLength: 1, maxLength: 6 }).filter((key) => key !== "_meta"),
        json,
        (m, n, a, key, value) => {
          fc.pre(!(key in a));
          assert.notEqual(
            requestKey(request(m, n, { ...a, [key]: value })).key,
            requestKey(request(m, n, a)).key,
          );
        },
      ),
      RUNS,
    );
  });

  it("the one-pass key equals its definition: stable text of the normalised params", () => {
    // The definition, written plainly; requestKey computes it without the copies.
    const defined = (message: JsonRpcMessage, ignoreKeys: string[]) => {
      const params = normaliseParams(message, { ignoreKeys });
      if (message.method !== "tools/call") return `${message.method} ${stableStringify(params)}`;
      const rest = { ...(params as Record<string, unknown>) };
      delete rest.name;
      delete rest.arguments;
      const extra = Object.keys(rest).length > 0 ? ` ${stableStringify(rest)}` : "";
      const callArgs = (params as Record<string, unknown> | null)?.arguments ?? {};
      return `tools/call ${targetName(message) ?? ""} ${stableStringify(callArgs)}${extra}`;
    };
    const params = fc.oneof(
      json,
      fc.dictionary(
        fc.constantFrom("name", "arguments", "cursor", "progressToken", "_meta", "x", "y"),
        json,
      ),
    );
    const ignore = fc.subarray(["x", "arguments", "deep"]);
    fc.assert(
      fc.property(method, params, ignore, (m, p, ignoreKeys) => {
        const message = { jsonrpc: "2.0", id: 1, method: m, params: p } as JsonRpcMessage;
        assert.equal(requestKey(message, { ignoreKeys }).key, defined(message, ignoreKeys));
      }),
      RUNS,
    );
  });

  it("the id never changes a key", () => {
    fc.assert(
      fc.property(method, name, args, fc.oneof(fc.integer(), fc.string()), (m, n, a, id) => {
        assert.equal(requestKey({ ...request(m, n, a), id }).key, requestKey(request(m, n, a)).key);
      }),
      RUNS,
    );
  });
});
