import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { importForeign } from "../../src/cassette/import.ts";
import { loadCassette } from "../../src/cassette/reader.ts";
import type { Cassette } from "../../src/cassette/reader.ts";
import { CassetteFormatError } from "../../src/errors/errors.ts";
import type { JsonObject } from "../../src/jsonrpc/messages.ts";
import { CLI, FOREIGN, run, tempDir } from "../helpers.ts";
import type { RunResult } from "../helpers.ts";

/** A sample of tests/fixtures/foreign (its README says which tool wrote it, and how). */
const foreign = (file: string) => path.join(FOREIGN, file);

function messages(cassette: Cassette) {
  return cassette.entries.filter((entry) =>
    entry.type === "message"
  ) as (Cassette["entries"][number] & { type: "message" })[];
}

/** Results the server sent, by request id, in order of the client's requests. */
function resultsInRequestOrder(cassette: Cassette): unknown[] {
  const all = messages(cassette);
  const byId = new Map<string, unknown>();
  for (const entry of all) {
    const msg = entry.msg as JsonObject;
    if (entry.dir === "s2c" && "result" in msg) byId.set(JSON.stringify(msg.id), msg.result);
  }
  return all.filter((entry) =>
    entry.dir === "c2s" && typeof (entry.msg as JsonObject).method === "string" &&
    "id" in (entry.msg as JsonObject)
  )
    .map((entry) => byId.get(JSON.stringify((entry.msg as JsonObject).id)));
}

/** The answer to each client request, in request order: a result, or `{ error: code }`. */
function answersInRequestOrder(cassette: Cassette): unknown[] {
  const all = messages(cassette);
  const byId = new Map<string, unknown>();
  for (const entry of all) {
    const msg = entry.msg as JsonObject;
    if (entry.dir !== "s2c" || msg.method !== undefined) continue;
    const error = msg.error as JsonObject | undefined;
    byId.set(JSON.stringify(msg.id), error ? { error: error.code } : msg.result);
  }
  return all.filter((entry) =>
    entry.dir === "c2s" && typeof (entry.msg as JsonObject).method === "string" &&
    "id" in (entry.msg as JsonObject)
  ).map((entry) => byId.get(JSON.stringify((entry.msg as JsonObject).id)));
}

/** What the SDK client received live in the session beside a sample, in the same shape. */
function liveAnswers(file: string): { server: JsonObject; answers: unknown[] } {
  const { server, ...steps } = JSON.parse(readFileSync(foreign(file), "utf8"));
  const answers = Object.values(steps).map((step) => {
    const thrown = (step as { thrown?: { code: number } }).thrown;
    return thrown ? { error: thrown.code } : step;
  });
  return { server, answers };
}

/** Every sample of scripts/foreign/regenerate.ts holds the same session of our server. */
function assertSampleSession(cassette: Cassette, expectedFile: string, source: string) {
  const { server, answers } = liveAnswers(expectedFile);
  assert.equal(cassette.importedFrom, source);
  assert.equal(cassette.header.transport, "stdio");
  assert.equal(cassette.header.era, "legacy");
  assert.equal(cassette.header.protocolVersion, "2025-11-25");
  assert.deepEqual(
    [cassette.header.server.name, cassette.header.server.version],
    [server.name, server.version],
  );
  const got = answersInRequestOrder(cassette);
  assert.equal((got[0] as JsonObject).protocolVersion, "2025-11-25", "initialize first");
  assert.deepEqual(got.slice(1), answers);
  const times = cassette.entries.map((entry) => entry.t);
  assert.deepEqual(times, [...times].sort((a, b) => a - b), "times never go back");
  assert.ok(times[0] >= 0 && times[0] < 10_000, `times start near 0, not ${times[0]}`);
}

/** Whether the sample kept the log notification the server sent after the first tool call. */
function loggedNotice(cassette: Cassette): number {
  return messages(cassette).filter((entry) =>
    entry.dir === "s2c" && (entry.msg as JsonObject).method === "notifications/message"
  ).length;
}

test("Python mcp-cassette 0.4.0 (format_version 3): every message, direction, time and header field", async () => {
  const file = "python-mcp-cassette/session.v3.mcp.json";
  const source = JSON.parse(readFileSync(foreign(file), "utf8"));
  const cassette = await loadCassette(foreign(file));
  assertSampleSession(
    cassette,
    "python-mcp-cassette/session.expected.json",
    "python-mcp-cassette@3",
  );
  assert.equal(cassette.entries.length, source.messages.length);
  source.messages.forEach((message: JsonObject, i: number) => {
    const entry = messages(cassette)[i];
    assert.deepEqual(entry.msg, message.payload, `seq ${message.seq}`);
    assert.equal(entry.t, message.t_offset_ms);
    assert.equal(entry.dir, message.sender === "client" ? "c2s" : "s2c");
  });
  assert.equal(cassette.header.created, source.recorded_at);
  assert.equal(loggedNotice(cassette), 1);
  assert.ok(cassette.header.redaction?.rules.includes("common/email"));
  assert.deepEqual(cassette.header.redaction?.packs?.map((pack) => pack.name), ["common"]);
  // Findings point at the source file's lines.
  const text = readFileSync(foreign(file), "utf8").split("\n");
  assert.equal(messages(cassette)[4].line, text.findIndex((l) => l.includes('"seq": 4')) + 1);
});

test("Python mcp-cassette 0.4.0 over Streamable HTTP: exchanges, server URL, the live answers", async () => {
  const file = "python-mcp-cassette/everything.http.v3.mcp.json";
  const source = JSON.parse(readFileSync(foreign(file), "utf8"));
  const cassette = await loadCassette(foreign(file));
  assert.equal(cassette.importedFrom, "python-mcp-cassette@3");
  assert.equal(cassette.header.transport, "http");
  assert.equal(cassette.header.server.url, source.server_url);
  assert.equal(cassette.header.meta?.sessionId, source.session_id);
  assert.equal(cassette.header.server.name, "mcp-servers/everything");
  assert.deepEqual(
    messages(cassette).map((entry) => [entry.dir, entry.x]),
    source.messages.map((m: JsonObject) => [m.sender === "client" ? "c2s" : "s2c", m.exchange]),
  );
  const { results } = JSON.parse(
    readFileSync(foreign("python-mcp-cassette/everything.http.expected.json"), "utf8"),
  );
  const { server, protocol, ...steps } = results;
  const got = resultsInRequestOrder(cassette);
  assert.deepEqual((got[0] as JsonObject).serverInfo, server);
  assert.equal((got[0] as JsonObject).protocolVersion, protocol);
  assert.deepEqual(got.slice(1), Object.values(steps));
});

test("mcp-rec 0.1.1: every line a message, epoch seconds to milliseconds, the live answers", async () => {
  const file = "mcp-rec/session.jsonl";
  const lines = readFileSync(foreign(file), "utf8").trim().split("\n").map((l) => JSON.parse(l));
  const cassette = await loadCassette(foreign(file));
  assertSampleSession(cassette, "mcp-rec/session.expected.json", "mcp-rec@0.1");
  assert.equal(cassette.entries.length, lines.length);
  lines.forEach((line, i) => {
    const entry = messages(cassette)[i];
    assert.deepEqual(entry.msg, line.msg);
    assert.equal(entry.dir, line.dir === "client->server" ? "c2s" : "s2c");
    assert.equal(entry.t, Math.round((line.ts - lines[0].ts) * 1000));
    assert.equal(entry.line, i + 1);
  });
  assert.equal(cassette.header.created, new Date(lines[0].ts * 1000).toISOString());
  assert.equal(loggedNotice(cassette), 1);
});

test("mcp-rec 0.1.1, two launches appended to one file: two sessions, each with the live answers", async () => {
  const cassette = await loadCassette(foreign("mcp-rec/two-launches.jsonl"));
  const sessions = [...new Set(cassette.entries.map((entry) => entry.session))];
  assert.deepEqual(sessions, [undefined, "launch-2"]);
  const { answers } = liveAnswers("mcp-rec/session.expected.json");
  for (const session of sessions) {
    const one = { ...cassette, entries: cassette.entries.filter((e) => e.session === session) };
    assert.deepEqual(answersInRequestOrder(one).slice(1), answers, String(session));
    const first = messages(one)[0].msg as JsonObject;
    assert.equal(first.method, "initialize", "each session opens with its initialize");
  }
  const times = cassette.entries.map((entry) => entry.t);
  assert.deepEqual(times, [...times].sort((a, b) => a - b), "one clock across the launches");
});

test("mcp-vcr 0.2.2 NDJSON: meta line to header, every message and time, the live answers", async () => {
  const file = "mcp-vcr/session.ndjson";
  const [meta, ...lines] = readFileSync(foreign(file), "utf8").trim().split("\n").map((l) =>
    JSON.parse(l)
  );
  const cassette = await loadCassette(foreign(file));
  assertSampleSession(cassette, "mcp-vcr/session.expected.json", "mcp-vcr@1");
  assert.equal(cassette.entries.length, lines.length);
  lines.forEach((line, i) => {
    const entry = messages(cassette)[i];
    assert.deepEqual([entry.msg, entry.dir, entry.t, entry.line], [
      line.payload,
      line.dir,
      line.t,
      i + 2,
    ]);
  });
  assert.deepEqual(cassette.header.server.command, meta.server_command);
  assert.equal(cassette.header.created, new Date(meta.recorded_at).toISOString());
  assert.equal(cassette.header.meta?.sessionId, meta.session_id);
  assert.equal(loggedNotice(cassette), 1);
});

test("mcp-recorder 0.5.0: request and response pairs, latencies laid end to end, the live answers", async () => {
  const file = "mcp-recorder/session.json";
  const source = JSON.parse(readFileSync(foreign(file), "utf8"));
  const cassette = await loadCassette(foreign(file));
  // Its own client made the same calls as the SDK's in the other samples, but ping.
  const { answers } = liveAnswers("mcp-rec/session.expected.json");
  assert.equal(cassette.importedFrom, "mcp-recorder@1.0");
  assert.deepEqual(answersInRequestOrder(cassette).slice(1), answers.slice(0, -1));
  const interactions = source.interactions as JsonObject[];
  const expected = interactions.flatMap((item) =>
    item.response ? [item.request, item.response] : [item.request]
  );
  assert.deepEqual(messages(cassette).map((entry) => entry.msg), expected);
  assert.deepEqual(
    messages(cassette).map((entry) => entry.dir),
    interactions.flatMap((item) => item.response ? ["c2s", "s2c"] : ["c2s"]),
  );
  let t = 0;
  const times = interactions.flatMap((item) => {
    const sent = t;
    t += item.response ? item.latency_ms as number : 0;
    return item.response ? [sent, t] : [sent];
  });
  assert.deepEqual(messages(cassette).map((entry) => entry.t), times);
  assert.equal(cassette.header.server.name, source.metadata.server_info.name);
  assert.equal(cassette.header.protocolVersion, source.metadata.protocol_version);
  const text = readFileSync(foreign(file), "utf8").split("\n");
  // Each entry points at its interaction's line, in order.
  const lines = messages(cassette).map((entry) => entry.line);
  assert.deepEqual(lines, [...lines].sort((a, b) => a - b));
  for (const line of new Set(lines)) {
    assert.match(text[line - 1], /"type": "(jsonrpc_request|notification)"/);
  }
});

test("TypeScript mcp-cassette stdio: every result equals what the client received live", async () => {
  const expected = JSON.parse(
    readFileSync(foreign("ts-mcp-cassette/everything.stdio.expected.json"), "utf8"),
  );
  const cassette = await loadCassette(foreign("ts-mcp-cassette/everything.stdio.cassette.jsonl"));
  assert.equal(cassette.importedFrom, "ts-mcp-cassette@2");
  assert.equal(cassette.entries.length, 44);
  assert.equal(cassette.header.transport, "stdio");
  assert.deepEqual(cassette.header.server.command?.slice(0, 1), ["node"]);
  assert.equal(cassette.header.server.name, "mcp-servers/everything");
  assert.equal(cassette.header.protocolVersion, "2025-11-25");
  const results = resultsInRequestOrder(cassette);
  const { server, ...steps } = expected;
  const initialize = results[0] as JsonObject;
  assert.deepEqual(initialize.serverInfo, server.info);
  assert.deepEqual(initialize.capabilities, server.caps);
  assert.deepEqual(results.slice(1), Object.values(steps));
  assert.equal(
    messages(cassette).filter((entry) =>
      entry.dir === "s2c" && (entry.msg as JsonObject).method === "notifications/tools/list_changed"
    ).length,
    1,
  );
});

test("TypeScript mcp-cassette HTTP: streamed chunks back in arrival order, exchanges, server-initiated requests", async () => {
  const expected = JSON.parse(
    readFileSync(foreign("ts-mcp-cassette/initiated.http.expected.json"), "utf8"),
  );
  const cassette = await loadCassette(foreign("ts-mcp-cassette/initiated.http.cassette.jsonl"));
  assert.equal(cassette.header.transport, "http");
  assert.equal(cassette.header.era, "legacy");
  assert.equal(cassette.header.server.url, "http://127.0.0.1:45921/mcp");
  const all = messages(cassette);
  assert.equal(all.length, 27);
  const times = all.map((entry) => entry.t);
  assert.deepEqual(times, [...times].sort((a, b) => a - b), "entries are in time order");
  const results = resultsInRequestOrder(cassette).filter((result) =>
    result !== undefined
  ) as JsonObject[];
  // initialize, tools/list, then the five tools/call in order
  assert.deepEqual(results[0].serverInfo, expected.server.info);
  assert.deepEqual(results[1], expected["tools/list"]);
  assert.deepEqual(results.slice(2, 7), [
    expected.sampling,
    expected.elicitation,
    expected.roots,
    expected.progress,
    expected["sampling-2"],
  ]);
  const asked = all.filter((entry) =>
    entry.dir === "s2c" && "id" in (entry.msg as JsonObject) &&
    typeof (entry.msg as JsonObject).method === "string"
  );
  assert.deepEqual(
    asked.map((entry) => (entry.msg as JsonObject).method),
    expected.asked.map((ask: JsonObject) => ask.method),
  );
  const progress = all.filter((entry) =>
    (entry.msg as JsonObject).method === "notifications/progress"
  );
  assert.equal(progress.length, 3);
  // A POST's stream shares the exchange number of its request; the GET stream has its own.
  const call = all.find((entry) => (entry.msg as JsonObject).id === 5 && entry.dir === "c2s")!;
  assert.ok(progress.every((entry) => entry.x === call.x && entry.sse?.stream === "post"));
  const roots = all.find((entry) => (entry.msg as JsonObject).method === "roots/list")!;
  assert.equal(roots.sse?.stream, "get");
  assert.notEqual(roots.x, call.x);
});

test("TypeScript mcp-cassette small fixtures: v1 and v2 tapes, era and command", async () => {
  const tape = await loadCassette(foreign("ts-mcp-cassette/stdio-tape.jsonl"));
  assert.deepEqual(messages(tape).map((entry) => entry.dir), ["c2s", "s2c"]);
  const modern = await loadCassette(foreign("ts-mcp-cassette/tape.http.jsonl"));
  assert.equal(modern.header.era, "modern");
  assert.equal(modern.header.transport, "http");
  const golden = await loadCassette(foreign("ts-mcp-cassette/tiny-server.golden.cassette.jsonl"));
  assert.equal(golden.importedFrom, "ts-mcp-cassette@1");
  assert.deepEqual(golden.header.server.command, ["node", "tests/fixtures/tiny-server.mjs"]);
  assert.equal(golden.header.protocolVersion, "2025-06-18");
  assert.equal(golden.entries.length, 5);
});

/** Runs `body` with a fresh temporary folder, removed afterwards. */
async function inTempDir(body: (dir: string) => Promise<void>): Promise<void> {
  const dir = tempDir();
  try {
    await body(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The stderr of a command that must fail with exit 2 and one line. */
function oneLineExit2(result: RunResult, what: string): string {
  assert.equal(result.code, 2, `${what}: ${result.stderr}`);
  const lines = result.stderr.trim().split("\n");
  assert.equal(lines.length, 1, `${what} printed one line, not:\n${result.stderr}`);
  return lines[0];
}

test("a file of no known format is a one-line CassetteFormatError, exit 2", async () => {
  await inTempDir(async (dir) => {
    const stray = path.join(dir, "notes.jsonl");
    writeFileSync(stray, `{"hello": "world"}\n`);
    await assert.rejects(importForeign(stray), (error: unknown) => {
      assert.ok(error instanceof CassetteFormatError);
      assert.match(error.message, /not a cassette of any known format \(expected/);
      return true;
    });
    oneLineExit2(await run([...CLI, "import", stray, "-o", path.join(dir, "out.jsonl")]), "import");
    const cli = await run([
      ...CLI,
      "inspect",
      foreign("ts-mcp-cassette/everything.stdio.expected.json"),
    ]);
    assert.equal(cli.code, 2);
    writeFileSync(stray, `{"format_version": 9, "messages": []}`);
    await assert.rejects(importForeign(stray), /format_version 9 is not supported/);
  });
});

for (const sample of ["mcp-vcr/session.yaml", "vcrpy/initialize.yaml"]) {
  test(`${sample} (YAML): import and replay print the known-formats line, exit 2`, async () => {
    await assertKnownFormatsLine(foreign(sample));
  });
}

async function assertKnownFormatsLine(yaml: string) {
  await inTempDir(async (dir) => {
    for (
      const [what, command] of [
        ["import", [...CLI, "import", yaml, "-o", path.join(dir, "out.jsonl")]],
        ["replay", [...CLI, "replay", "--quiet", yaml]],
      ] as const
    ) {
      const line = oneLineExit2(await run(command), what);
      assert.match(
        line,
        new RegExp(`${yaml.replaceAll(".", "\\.")}:1: not a cassette of any known format`),
      );
      assert.match(line, /mcp-vcr NDJSON/, "names the formats that are known");
    }
    assert.deepEqual(readdirSync(dir), [], "import wrote nothing");
  });
}

test("import -o writes a cassette our reader reads back unchanged, for every format", async () => {
  const samples: [string, string][] = [
    ["ts-mcp-cassette/initiated.http.cassette.jsonl", "ts-mcp-cassette@2"],
    ["python-mcp-cassette/session.v3.mcp.json", "python-mcp-cassette@3"],
    ["python-mcp-cassette/everything.http.v3.mcp.json", "python-mcp-cassette@3"],
    ["mcp-rec/session.jsonl", "mcp-rec@0.1"],
    ["mcp-vcr/session.ndjson", "mcp-vcr@1"],
    ["mcp-recorder/session.json", "mcp-recorder@1.0"],
  ];
  await inTempDir(async (dir) => {
    for (const [sample, format] of samples) {
      const out = path.join(dir, `${path.basename(sample)}.cassette.jsonl`);
      const source = foreign(sample);
      const direct = await importForeign(source);
      const result = await run([...CLI, "import", source, "-o", out]);
      assert.equal(result.code, 0, result.stderr);
      assert.match(
        result.stderr,
        new RegExp(`converted ${direct.entries.length} entries from ${format}`),
      );
      const back = await loadCassette(out);
      assert.equal(back.importedFrom, undefined);
      assert.deepEqual(back.header, direct.header, sample);
      assert.deepEqual(
        back.entries.map(({ line: _, ...entry }) => entry),
        direct.entries.map(({ line: _, ...entry }) => entry),
        sample,
      );
    }
    const out = path.join(dir, "again.cassette.jsonl");
    const source = foreign(samples[0][0]);
    assert.equal((await run([...CLI, "import", source, "-o", out])).code, 0);
    const again = await run([...CLI, "import", source, "-o", out]);
    assert.equal(again.code, 2, "refuses to overwrite without --force");
    assert.equal((await run([...CLI, "import", source, "-o", out, "--force"])).code, 0);
  });
});
