/**
 * Spy mode with the live server reached over Streamable HTTP (`replay
 * CASSETTE --on-miss live --url URL`): server-everything in its
 * streamableHttp mode runs as a subprocess; a cassette of it recorded over
 * stdio is replayed to the official SDK client, hits from the cassette,
 * misses from the HTTP server (opened on the first miss with this session's
 * own handshake), nothing written unless `--append`.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { startCassette } from "../../mod.ts";
import { Client, StdioClientTransport } from "../sdk.ts";
import { CLI, EVERYTHING, initializeRequest, run, tempDir } from "../helpers.ts";
import { freePort, startBackground, startEverythingHttp, URL_LINE } from "../http/http_helpers.ts";
import { StreamableHTTPClientTransport } from "../sdk.ts";

/** A cassette of server-everything (stdio) that holds tools/list and no tools/call. */
async function recorded(): Promise<string> {
  const cassette = path.join(tempDir(), "everything.cassette.jsonl");
  const recording = await startCassette({ path: cassette, mode: "all", server: EVERYTHING });
  const client = new Client({ name: "spy-url-test", version: "1.0.0" });
  await client.connect(
    new StdioClientTransport({ command: recording.command, args: recording.args }),
  );
  await client.listTools();
  await client.close();
  await recording.finish();
  return cassette;
}

/** Lists the tools, then calls echo with `message`, through `command`; the echo's text. */
async function listThenEcho(command: string[], message: string): Promise<string> {
  const client = new Client({ name: "spy-url-test", version: "1.0.0" });
  await client.connect(
    new StdioClientTransport({ command: command[0], args: command.slice(1), stderr: "ignore" }),
  );
  try {
    const tools = await client.listTools();
    assert.ok(tools.tools.some((tool) => tool.name === "echo"));
    const echoed = await client.callTool({ name: "echo", arguments: { message } });
    return JSON.stringify(echoed.content);
  } finally {
    await client.close();
  }
}

test("spy --url: a hit is the recording, a miss goes to the HTTP server, nothing is written", async () => {
  const cassette = await recorded();
  const before = readFileSync(cassette, "utf8");
  const report = path.join(path.dirname(cassette), "report.json");
  const server = await startEverythingHttp();
  try {
    const spy = [
      ...CLI,
      "replay",
      cassette,
      "--on-miss",
      "live",
      "--url",
      server.url,
      "--report",
      report,
    ];
    // server-everything refuses tools/call outside an initialized session:
    // the echo proves the spy opened it with this session's own handshake.
    const text = await listThenEcho(spy, "over http");
    assert.match(text, /over http/);
  } finally {
    await server.stop();
  }
  assert.equal(readFileSync(cassette, "utf8"), before, "spy mode writes nothing");
  const written = JSON.parse(readFileSync(report, "utf8"));
  assert.deepEqual(written.live, ['tools/call "echo"'], "the live answer is reported as such");
  assert.deepEqual(written.misses, []);
});

test("spy --url on the CLI: exit 0, the stderr summary names the live answer", async () => {
  const cassette = await recorded();
  const input = [
    initializeRequest(1),
    { jsonrpc: "2.0", method: "notifications/initialized" },
    { jsonrpc: "2.0", id: 2, method: "tools/list" },
    {
      jsonrpc: "2.0",
      id: 3,
      method: "tools/call",
      params: { name: "echo", arguments: { message: "raw pipe" } },
    },
  ].map((message) => JSON.stringify(message) + "\n").join("");
  const server = await startEverythingHttp();
  let result;
  try {
    result = await run(
      [...CLI, "replay", cassette, "--on-miss", "live", "--url", server.url],
      { input },
    );
  } finally {
    await server.stop();
  }
  assert.equal(result.code, 0, result.stderr);
  assert.match(result.stderr, /answered live: tools\/call "echo"/);
  assert.match(result.stderr, /1 answered live/);
  const answers = result.stdout.trim().split("\n").map((line) => JSON.parse(line));
  assert.match(JSON.stringify(answers.find((m) => m.id === 3).result), /raw pipe/);
  assert.ok(answers.find((m) => m.id === 2).result.tools.length > 0);
});

test("spy --url with --append keeps the live exchange; a plain replay answers it after", async () => {
  const cassette = await recorded();
  const server = await startEverythingHttp();
  let live: string;
  try {
    const spy = [...CLI, "replay", cassette, "--on-miss", "live", "--append", "--url", server.url];
    live = await listThenEcho(spy, "kept");
  } finally {
    await server.stop();
  }
  assert.match(readFileSync(cassette, "utf8"), /"appended":true/);
  // The HTTP server is gone: the answer now comes from the cassette alone.
  assert.equal(await listThenEcho([...CLI, "replay", cassette], "kept"), live);
});

test("spy --url starts nothing while the cassette answers, and names no token when it cannot reach the server", async () => {
  const cassette = await recorded();
  const port = await freePort();
  const url = `http://127.0.0.1:${port}/mcp?key=tok-spy-url-0123456789`;
  const hits = [
    initializeRequest(1),
    { jsonrpc: "2.0", method: "notifications/initialized" },
    { jsonrpc: "2.0", id: 2, method: "tools/list" },
  ];
  const lines = (messages: unknown[]) => messages.map((m) => JSON.stringify(m) + "\n").join("");
  const quiet = await run([...CLI, "replay", cassette, "--on-miss", "live", "--url", url], {
    input: lines(hits),
  });
  assert.equal(quiet.code, 0, "no miss, so the unreachable URL is never tried: " + quiet.stderr);
  assert.doesNotMatch(quiet.stderr, /answered live/);
  const miss = { jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "echo" } };
  const down = await run([...CLI, "replay", cassette, "--on-miss", "live", "--url", url], {
    input: lines([...hits, miss]),
  });
  const answer = down.stdout.trim().split("\n").map((line) => JSON.parse(line)).find((m) =>
    m.id === 3
  );
  assert.match(
    answer.error.message,
    new RegExp(`Cannot reach the live server at http://127\\.0\\.0\\.1:${port}/mcp`),
  );
  assert.ok(!(down.stdout + down.stderr).includes("tok-spy-url"), "the URL's query is not shown");
});

test("--url with a command, --url alone, or a URL that does not parse: one line, exit 2, nothing written", async () => {
  const cassette = await recorded();
  const before = readFileSync(cassette, "utf8");
  const cases: [string[], RegExp][] = [
    [
      ["--on-miss", "live", "--url", "http://127.0.0.1:9/mcp", "--", ...EVERYTHING],
      /either --url or a server command after --, not both/,
    ],
    [["--url", "http://127.0.0.1:9/mcp"], /--url goes with --on-miss live or --new-episodes/],
    [
      ["--on-miss", "live", "--url", "not a url"],
      /--url is not a valid http:\/\/ or https:\/\/ URL/,
    ],
    [["--on-miss", "live", "--url", "ftp://host/mcp"], /--url must be http:\/\/ or https:\/\//],
    [["--on-miss", "live"], /needs the live server command after -- \(or --url URL\)/],
  ];
  for (const [flags, message] of cases) {
    const result = await run([...CLI, "replay", cassette, ...flags]);
    assert.equal(result.code, 2, flags.join(" ") + ": " + result.stderr);
    assert.equal(result.stderr.trim().split("\n").length, 1, result.stderr);
    assert.match(result.stderr, message);
  }
  assert.equal(readFileSync(cassette, "utf8"), before);
});

test("the helpers' onMiss: live with liveUrl sends misses to the HTTP server and lists them in the result", async () => {
  const cassette = await recorded();
  const before = readFileSync(cassette, "utf8");
  const server = await startEverythingHttp();
  let result;
  try {
    const spied = await startCassette({
      path: cassette,
      mode: "none",
      onMiss: "live",
      liveUrl: server.url,
    });
    assert.match(await listThenEcho([spied.command, ...spied.args], "helper"), /helper/);
    result = await spied.finish();
  } finally {
    await server.stop();
  }
  assert.deepEqual(result.live, ['tools/call "echo"']);
  assert.deepEqual(result.misses, []);
  assert.equal(readFileSync(cassette, "utf8"), before);
  await assert.rejects(
    startCassette({ path: cassette, mode: "none", liveUrl: "http://127.0.0.1:9/mcp" }),
    /liveUrl goes with onMiss "live"/,
  );
});

test("spy over --listen: the HTTP replay answers hits, sends misses to the live server (--url or a command), writes nothing", async () => {
  const cassette = await recorded();
  const before = readFileSync(cassette, "utf8");
  const server = await startEverythingHttp();
  try {
    for (const live of [["--url", server.url], ["--", ...EVERYTHING]]) {
      const report = path.join(tempDir(), "report.json");
      const replay = await startBackground(
        [
          ...CLI,
          "replay",
          cassette,
          "--listen",
          "127.0.0.1:0",
          "--on-miss",
          "live",
          "--report",
          report,
          ...live,
        ],
        URL_LINE,
      );
      let code;
      try {
        const client = new Client({ name: "spy-listen-test", version: "1.0.0" });
        await client.connect(new StreamableHTTPClientTransport(new URL(replay.found)));
        const tools = await client.listTools();
        assert.ok(tools.tools.some((tool) => tool.name === "echo"));
        const echoed = await client.callTool({ name: "echo", arguments: { message: "listened" } });
        assert.match(JSON.stringify(echoed.content), /listened/);
        await client.close();
      } finally {
        code = await replay.stop();
      }
      assert.equal(code, 0, live[0] + ": " + replay.output());
      assert.match(replay.output(), /answered live: tools\/call "echo"/);
      const written = JSON.parse(readFileSync(report, "utf8"));
      assert.deepEqual(written.live, ['tools/call "echo"'], live[0]);
      assert.deepEqual(written.misses, []);
    }
  } finally {
    await server.stop();
  }
  assert.equal(readFileSync(cassette, "utf8"), before, "spy mode writes nothing");
  const appending = await run([
    ...CLI,
    "replay",
    cassette,
    "--listen",
    "127.0.0.1:0",
    "--on-miss",
    "live",
    "--append",
    "--url",
    "http://127.0.0.1:9/mcp",
  ]);
  assert.equal(appending.code, 2, appending.stderr);
  assert.match(appending.stderr, /--append and --run-log work over stdio only, not with --listen/);
});
