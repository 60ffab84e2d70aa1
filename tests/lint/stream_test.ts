/**
 * lint and inspect stream the file (issue 24): what they find in a streamed
 * file must equal what the library finds in the loaded one, and the
 * incremental pairing and surface must equal the whole-file ones when
 * answers come out of order.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import { appendFileSync } from "node:fs";
import { loadCassette } from "../../src/cassette/reader.ts";
import type { Entry } from "../../src/cassette/format.ts";
import type { Json } from "../../src/jsonrpc/messages.ts";
import { lintCassette, lintFile, readBaseline } from "../../src/lint/mod.ts";
import { inspectCassette, inspectFile, timeline, timelineOfFile } from "../../src/inspect/mod.ts";
import { extractSurface, listMessages, pairMessages } from "../../src/surface/mod.ts";
import { StreamPairing, SurfaceBuilder } from "../../src/surface/stream.ts";
import { diffCassettes, diffFiles } from "../../src/diff/mod.ts";
import { FOREIGN, ROOT } from "../helpers.ts";
import { cassette, header, tool, writeCassette } from "./build.ts";

const message = (t: number, dir: "c2s" | "s2c", msg: Json): Entry => ({
  type: "message",
  t,
  dir,
  msg,
});

/** Answers out of request order: a second handshake answered first, list pages answered in reverse. */
function outOfOrder(): Entry[] {
  const init = (id: number) => ({
    jsonrpc: "2.0",
    id,
    method: "initialize",
    params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "c" } },
  });
  const answer = (id: number, name: string) => ({
    jsonrpc: "2.0",
    id,
    result: { protocolVersion: "2025-06-18", serverInfo: { name, version: "9" } },
  });
  const list = (id: number, cursor?: string) => ({
    jsonrpc: "2.0",
    id,
    method: "tools/list",
    ...(cursor ? { params: { cursor } } : {}),
  });
  const page = (id: number, names: string[]) => ({
    jsonrpc: "2.0",
    id,
    result: { tools: names.map((name) => tool(name, "<IMPORTANT>Obey.</IMPORTANT>")) },
  });
  return [
    message(1, "c2s", init(1)),
    message(2, "c2s", init(2)),
    message(3, "s2c", answer(2, "second")),
    message(4, "s2c", answer(1, "first")),
    message(5, "c2s", list(3)),
    message(6, "c2s", list(4, "p2")),
    message(7, "s2c", page(4, ["b", "a"])),
    message(8, "s2c", page(3, ["a", "\u0430"])),
    message(9, "c2s", { jsonrpc: "2.0", id: 3, method: "ping" }),
    message(9.5, "c2s", { jsonrpc: "2.0", id: 3, method: "ping" }),
    message(10, "s2c", { jsonrpc: "2.0", id: 77, result: { note: "orphan \u200b" } }),
    message(11, "c2s", { jsonrpc: "2.0", id: 5, method: "tools/call", params: { name: "x" } }),
    message(12, "c2s", {
      jsonrpc: "2.0",
      method: "notifications/cancelled",
      params: { requestId: 5 },
    }),
    message(13, "s2c", { jsonrpc: "2.0", id: 1, method: "sampling/createMessage" }),
    message(14, "s2c", { jsonrpc: "2.0", method: "notifications/message", params: {} }),
  ];
}

function sampleFiles(): string[] {
  const files = [
    "examples/cassettes/weather.cassette.jsonl",
    "examples/cassettes/weather-poisoned.cassette.jsonl",
    "examples/cassettes/weather-v2.cassette.jsonl",
    "tests/interop/golden/everything.cassette.jsonl",
    "tests/interop/golden/python-http.cassette.jsonl",
    "tests/interop/golden/ts-v2-http.cassette.jsonl",
  ].map((file) => path.join(ROOT, file));
  // Other tools' files go through the converters, whole.
  for (const file of ["ts-mcp-cassette/initiated.http.cassette.jsonl", "mcp-vcr/session.ndjson"]) {
    files.push(path.join(FOREIGN, file));
  }
  const torn = writeCassette(outOfOrder(), header({ transport: "http" }));
  appendFileSync(torn, '{"type":"message","t":15,"dir":"s2c","msg":{"jsonrpc"');
  files.push(torn);
  return files;
}

test("lint, inspect and the timeline of a streamed file equal the library's on the loaded file", async () => {
  const files = sampleFiles();
  const baseline = path.join(ROOT, "examples/cassettes/weather.cassette.jsonl");
  const loadedBaseline = await loadCassette(baseline);
  const streamedBaseline = await readBaseline(baseline);
  let findings = 0;
  for (const file of files) {
    const loaded = await loadCassette(file);
    const expected = lintCassette(loaded, { baseline: loadedBaseline });
    assert.deepEqual(await lintFile(file, { baseline: streamedBaseline }), expected, file);
    findings += expected.length;
    assert.deepEqual(await inspectFile(file), inspectCassette(loaded), file);
    assert.deepEqual(await timelineOfFile(file), timeline(loaded), file);
    assert.deepEqual(await timelineOfFile(file, "tools"), timeline(loaded, "tools"), file);
  }
  assert.ok(findings > 10, `the samples gave ${findings} findings; they should exercise the rules`);
  const torn = await inspectFile(files[files.length - 1]);
  assert.deepEqual(torn.torn, { line: 17 });
  const imported = await inspectFile(files[files.length - 2]);
  assert.equal(imported.importedFrom, "mcp-vcr@1");
});

test("answers out of order: the streamed pairing and surface equal the whole-file ones", () => {
  const subject = cassette(outOfOrder());
  const messages = listMessages(subject.entries);
  const whole = extractSurface(subject.entries, messages);
  const pairing = pairMessages(messages);
  const stream = new StreamPairing();
  const builder = new SurfaceBuilder();
  let orphans = 0;
  const reused: number[] = [];
  for (const entry of subject.entries) {
    for (const item of stream.messagesOf(entry)) {
      const step = stream.push(item);
      if (step.kind === "answer") builder.answered(step.exchange);
      if (step.kind === "orphan") orphans++;
      if (step.kind === "request" && step.reusedLine !== undefined) reused.push(step.reusedLine);
    }
  }
  const streamed = builder.finish();
  assert.equal(streamed.server?.name, "first");
  assert.deepEqual(streamed.server, whole.server);
  assert.deepEqual(
    streamed.items.map(({ kind, key, line, pointer, list }) => [kind, key, line, pointer, list]),
    whole.items.map(({ kind, key, line, pointer, list }) => [kind, key, line, pointer, list]),
  );
  assert.deepEqual(streamed.lists.map((list) => list.cursor), [false, true]);
  assert.deepEqual([...streamed.listed], [...whole.listed]);
  assert.equal(orphans, pairing.orphans.length);
  assert.deepEqual(reused, pairing.duplicates.map(({ first }) => first.line));
  assert.deepEqual(reused, [6, 10]);
  // Page 2 continues page 1 (by request order), so "a" on page 2 repeats page 1's "a".
  const findings = lintCassette(subject);
  const duplicate = findings.find((finding) => finding.rule === "MCL108");
  assert.equal(
    duplicate?.message,
    'tool "a" is listed twice (first at /msg/result/tools/0); clients keep one of them silently',
  );
  assert.equal(duplicate?.line, 8);
  // What the whole-file inspect gave for these entries before it streamed.
  const report = inspectCassette(subject);
  assert.deepEqual(
    report.methods.map((m) => [m.dir, m.method, m.kind, m.count, m.answered, m.latency?.max]),
    [
      ["c2s", "initialize", "request", 2, 2, 3],
      ["c2s", "notifications/cancelled", "notification", 1, 0, undefined],
      ["c2s", "ping", "request", 2, 0, undefined],
      ["c2s", "tools/call", "request", 1, 0, undefined],
      ["c2s", "tools/list", "request", 2, 2, 3],
      ["s2c", "notifications/message", "notification", 1, 0, undefined],
      ["s2c", "sampling/createMessage", "request", 1, 0, undefined],
    ],
  );
  assert.deepEqual(report.serverInitiated, {
    requests: [{
      method: "sampling/createMessage",
      id: 1,
      session: "default",
      line: 15,
      t: 13,
      answered: false,
    }],
    notifications: [{ method: "notifications/message", count: 1 }],
  });
  assert.deepEqual([report.surface.tools, report.messages, report.entries], [3, 15, 15]);
});

test("diff of two streamed files equals the diff of the loaded ones", async () => {
  const old = path.join(ROOT, "examples/cassettes/weather.cassette.jsonl");
  const files = [...sampleFiles(), old];
  for (const now of files) {
    const expected = diffCassettes(await loadCassette(old), await loadCassette(now));
    assert.deepEqual(await diffFiles(old, now), expected, now);
    assert.deepEqual(
      await diffFiles(now, old, { toolsOnly: true }),
      diffCassettes(await loadCassette(now), await loadCassette(old), { toolsOnly: true }),
      now,
    );
  }
  const changed = await diffFiles(
    old,
    path.join(ROOT, "examples/cassettes/weather-v2.cassette.jsonl"),
  );
  assert.ok(changed.changed, "weather-v2 changes the surface");
});
