/**
 * Terminal and report output cannot be injected: a cassette whose tool
 * names, arguments and answers hold escape sequences (clear the screen, set
 * the window title, a one-byte C1 CSI, a bidi override), and a cassette line
 * of raw binary, go through `inspect`, `diff`, `lint`, a replay miss and a
 * parse error with every control character shown as an escape; `verify
 * --junit` writes only characters XML 1.0 allows.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { CLI, initializeRequest, run, tempDir } from "../helpers.ts";
import { call, FIXTURE, initialize, LineProcess } from "./_helpers.ts";
import { loadCassette } from "../../src/cassette/reader.ts";
import { CassetteFormatError } from "../../src/errors/errors.ts";

/** Clear screen, retitle the window (OSC ... BEL), a C1 CSI, a right-to-left override. */
const EVIL = "\x1b[2J\x1b]0;owned\x07\u009b31m\u202e\r";
const TOOL = `weather${EVIL}`;

/** Raw control characters a terminal acts on (tab and newline are text). */
// deno-lint-ignore no-control-regex -- finding control characters is the point
const RAW = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069]/;

function assertClean(what: string, output: string): void {
  // Our own colours (FORCE_COLOR is set) are not what is looked for.
  // deno-lint-ignore no-control-regex -- our colour codes start with ESC
  const found = RAW.exec(output.replace(/\x1b\[(?:0|1|2|31|32|33)m/g, ""));
  assert.equal(
    found,
    null,
    `${what} printed a raw U+${found?.[0].charCodeAt(0).toString(16).padStart(4, "0")}:\n${
      JSON.stringify(output)
    }`,
  );
}

function crafted(description: string): string {
  const lines = [
    {
      format: "mcp-cassette",
      version: 1,
      created: "2026-01-01T00:00:00.000Z",
      transport: "stdio",
      server: { command: ["node", `server${EVIL}.js`], name: `srv${EVIL}`, version: "1" },
    },
    { type: "message", t: 0, dir: "c2s", msg: initializeRequest(1) },
    {
      type: "message",
      t: 1,
      dir: "s2c",
      msg: {
        jsonrpc: "2.0",
        id: 1,
        result: {
          protocolVersion: "2025-11-25",
          capabilities: { tools: {} },
          serverInfo: { name: `srv${EVIL}`, version: "1" },
        },
      },
    },
    { type: "message", t: 2, dir: "c2s", msg: { jsonrpc: "2.0", id: 2, method: "tools/list" } },
    {
      type: "message",
      t: 3,
      dir: "s2c",
      msg: {
        jsonrpc: "2.0",
        id: 2,
        result: { tools: [{ name: TOOL, description, inputSchema: { type: "object" } }] },
      },
    },
    {
      type: "message",
      t: 4,
      dir: "c2s",
      msg: {
        jsonrpc: "2.0",
        id: 3,
        method: "tools/call",
        params: { name: TOOL, arguments: { q: EVIL } },
      },
    },
    {
      type: "message",
      t: 5,
      dir: "s2c",
      msg: { jsonrpc: "2.0", id: 3, result: { content: [{ type: "text", text: `sunny${EVIL}` }] } },
    },
  ];
  return lines.map((line) => JSON.stringify(line)).join("\n") + "\n";
}

test("inspect, diff and lint show a crafted cassette's escape sequences as escapes", async () => {
  const dir = tempDir();
  const before = path.join(dir, "before.cassette.jsonl");
  const after = path.join(dir, "after.cassette.jsonl");
  writeFileSync(before, crafted(`Forecast${EVIL}`));
  writeFileSync(after, crafted(`Forecast, now hourly${EVIL}`));
  for (
    const args of [
      ["inspect", before],
      ["inspect", before, "--timeline"],
      ["diff", before, after],
      ["lint", before],
    ]
  ) {
    const result = await run([...CLI, ...args], { env: { FORCE_COLOR: "1", NO_COLOR: undefined } });
    assert.ok(result.code !== 70 && result.code !== null, `${args.join(" ")}: ${result.stderr}`);
    assertClean(`${args[0]} (stdout)`, result.stdout);
    assertClean(`${args[0]} (stderr)`, result.stderr);
    if (!args.includes("--timeline")) {
      assert.match(result.stdout + result.stderr, /\\u001b\[2J/, `${args.join(" ")} hid the value`);
    }
  }
});

test("a replay miss names the crafted tool with its escape sequences escaped", async () => {
  const cassette = path.join(tempDir(), "miss.cassette.jsonl");
  writeFileSync(cassette, crafted("Forecast"));
  const input = [
    initializeRequest(1),
    { jsonrpc: "2.0", method: "notifications/initialized" },
    {
      jsonrpc: "2.0",
      id: 3,
      method: "tools/call",
      params: { name: TOOL, arguments: { q: `other${EVIL}` } },
    },
  ].map((message) => JSON.stringify(message)).join("\n") + "\n";
  const result = await run([...CLI, "replay", cassette], { input });
  assert.equal(result.code, 3, result.stderr);
  assert.match(result.stderr, /miss/i);
  assertClean("replay's miss message", result.stderr);
  assert.match(result.stderr, /weather\\u001b\[2J/);
});

test("a cassette line of raw binary is one parse error line, no raw byte echoed", async () => {
  const cassette = path.join(tempDir(), "binary.cassette.jsonl");
  const header = crafted("x").split("\n")[0];
  const binary = Buffer.from([
    0x1b,
    0x5b,
    0x32,
    0x4a,
    0x00,
    0x07,
    0x9b,
    0xc2,
    0x9b,
    0xff,
    0x0d,
    0x7d,
  ]);
  writeFileSync(cassette, Buffer.concat([Buffer.from(header + "\n"), binary, Buffer.from("\n")]));
  for (const command of ["inspect", "lint", "diff"]) {
    const args = command === "diff" ? [cassette, cassette] : [cassette];
    const result = await run([...CLI, command, ...args]);
    assert.equal(result.code, 2, `${command}: ${result.code} ${result.stderr}`);
    assertClean(`${command}'s parse error`, result.stderr);
    assert.equal(result.stderr.trim().split("\n").length, 1, result.stderr);
    assert.match(result.stderr, /binary\.cassette\.jsonl:2/);
  }
});

test("the library's errors, which a test runner prints as they are, escape them too", async () => {
  const cassette = path.join(tempDir(), "binary.cassette.jsonl");
  const header = crafted("x").split("\n")[0];
  writeFileSync(cassette, `${header}\n\x1b]0;owned\x07\u009b2J\n`);
  const error = await loadCassette(cassette).then(() => undefined, (thrown: Error) => thrown);
  assert.ok(error instanceof CassetteFormatError, String(error));
  assertClean("loadCassette's error", error.message);
  // V8 quotes the line, Bun the token: both show the ESC escaped.
  assert.match(error.message, /\\u001b/);
});

test("verify --junit writes XML 1.0 when a value holds U+FFFE and C0 controls", async () => {
  const dir = tempDir();
  const cassette = path.join(dir, "verify.cassette.jsonl");
  const live = new LineProcess([...CLI, "record", "-o", cassette, "--", ...FIXTURE, "serve"]);
  live.send(initialize());
  await live.answer(1);
  live.send({ jsonrpc: "2.0", method: "notifications/initialized" });
  live.send(call(2, `echo`, { v: `\uFFFE\u0001${EVIL}` }));
  await live.answer(2);
  assert.equal((await live.finish()).code, 0, live.stderr);
  // The recorded answer made to differ from what the server says now, so the report quotes both.
  const changed = readFileSync(cassette, "utf8").trimEnd().split("\n").map((line) => {
    const entry = JSON.parse(line);
    if (entry.dir === "s2c" && entry.msg?.id === 2 && entry.msg.result) {
      entry.msg.result.content[0].text += `\uFFFE\u0002${EVIL}`;
    }
    return JSON.stringify(entry);
  });
  writeFileSync(cassette, changed.join("\n") + "\n");
  const junit = path.join(dir, "junit.xml");
  const result = await run([
    ...CLI,
    "verify",
    cassette,
    "--junit",
    junit,
    "--",
    ...FIXTURE,
    "serve",
  ]);
  assert.ok(result.code === 0 || result.code === 1, result.stdout + result.stderr);
  const xml = readFileSync(junit, "utf8");
  assert.match(xml, /<failure /);
  // XML 1.0's Char production: tab, newline, return, and U+0020 up, less surrogates, U+FFFE and U+FFFF.
  const forbidden = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/u.exec(xml);
  assert.equal(forbidden, null, `junit holds U+${forbidden?.[0].codePointAt(0)?.toString(16)}`);
  assertClean("verify", result.stdout + result.stderr);
});
