/**
 * `record --script` end to end: a playbook drives server-everything through
 * the recorder (stdio and Streamable HTTP), and the official SDK client gets
 * the same answers from the replay of that cassette as from the live server.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { CLI, EVERYTHING, ROOT, run, SDK_SESSION, tempDir } from "../helpers.ts";
import { startBackground, startEverythingHttp, URL_LINE } from "../http/http_helpers.ts";

const BASIC = path.join(ROOT, "tests/script/playbooks/everything_basic.jsonc");

function lines(file: string): Record<string, unknown>[] {
  return readFileSync(file, "utf8").trim().split("\n").map((line) => JSON.parse(line));
}

function clientRequests(file: string, method: string): Record<string, unknown>[] {
  return lines(file).slice(1).map((entry) => entry.msg as Record<string, unknown>).filter((msg) =>
    msg && msg.method === method && msg.id !== undefined
  );
}

test("record --script over stdio: the replay answers the SDK client as the live server does", async () => {
  const dir = tempDir();
  try {
    const cassette = path.join(dir, "basic.cassette.jsonl");
    const recorded = await run([
      ...CLI,
      "record",
      "--script",
      BASIC,
      "-o",
      cassette,
      "--",
      ...EVERYTHING,
    ]);
    assert.equal(recorded.code, 0, recorded.stderr);
    assert.match(recorded.stderr, /step 7 call no-such-tool: ok/);
    assert.match(recorded.stderr, /recorded 15 step\(s\) into .*: 15 ok, 0 failed/);
    const header = lines(cassette)[0] as { meta?: Record<string, unknown>; transport: string };
    assert.deepEqual(header.meta, { scripted: "everything_basic.jsonc" });
    assert.equal(header.transport, "stdio");
    assert.equal(clientRequests(cassette, "tools/call").length, 6);
    // Lists and ping go without params, as the SDK clients send them.
    for (const method of ["tools/list", "prompts/list", "ping"]) {
      assert.deepEqual(Object.keys(clientRequests(cassette, method)[0]).sort(), [
        "id",
        "jsonrpc",
        "method",
      ]);
    }

    const live = await run([...SDK_SESSION, "--", ...EVERYTHING]);
    assert.equal(live.code, 0, live.stderr);
    const replayed = await run([...SDK_SESSION, "--", ...CLI, "replay", cassette]);
    assert.equal(replayed.code, 0, replayed.stderr);
    assert.deepEqual(JSON.parse(replayed.stdout), JSON.parse(live.stdout));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("record --script --url: the HTTP replay answers the SDK client as the live server does", async () => {
  const dir = tempDir();
  const server = await startEverythingHttp();
  try {
    const cassette = path.join(dir, "basic-http.cassette.jsonl");
    const recorded = await run([
      ...CLI,
      "record",
      "--script",
      BASIC,
      "-o",
      cassette,
      "--url",
      server.url,
    ]);
    assert.equal(recorded.code, 0, recorded.stderr);
    const header = lines(cassette)[0] as { meta?: Record<string, unknown>; transport: string };
    assert.deepEqual(header.meta, { scripted: "everything_basic.jsonc" });
    assert.notEqual(header.transport, "stdio");
    const live = await run([...SDK_SESSION, "--url", server.url]);
    assert.equal(live.code, 0, live.stderr);
    const replay = await startBackground(
      [...CLI, "replay", cassette, "--listen", "127.0.0.1:0"],
      URL_LINE,
    );
    try {
      const replayed = await run([...SDK_SESSION, "--url", replay.found]);
      assert.equal(replayed.code, 0, replayed.stderr);
      assert.deepEqual(JSON.parse(replayed.stdout), JSON.parse(live.stdout));
    } finally {
      await replay.stop();
    }
  } finally {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});

test("record --script: a sampling answer in the playbook drives the sampling tool", async () => {
  const dir = tempDir();
  try {
    const playbook = path.join(dir, "sampling.toml");
    writeFileSync(
      playbook,
      [
        "[answers]",
        'sampling = "A haiku about cassettes"',
        "",
        "[[steps]]",
        'call = "trigger-sampling-request"',
        'arguments = { prompt = "Write a haiku", maxTokens = 50 }',
        "",
      ].join("\n"),
    );
    const cassette = path.join(dir, "sampling.cassette.jsonl");
    const recorded = await run([
      ...CLI,
      "record",
      "--script",
      playbook,
      "-o",
      cassette,
      "--",
      ...EVERYTHING,
    ]);
    assert.equal(recorded.code, 0, recorded.stderr);
    const entries = lines(cassette).slice(1) as { dir: string; msg: Record<string, unknown> }[];
    const asked = entries.find((entry) =>
      entry.dir === "s2c" && entry.msg.method === "sampling/createMessage"
    );
    assert.ok(asked, "the server asked for sampling");
    const answered = entries.find((entry) => entry.dir === "c2s" && entry.msg.id === asked.msg.id);
    assert.equal(
      (answered?.msg.result as { content: { text: string } }).content.text,
      "A haiku about cassettes",
    );
    const call = clientRequests(cassette, "tools/call")[0];
    const result = entries.find((entry) => entry.dir === "s2c" && entry.msg.id === call.id);
    assert.match(JSON.stringify(result?.msg.result), /A haiku about cassettes/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("record --script: a failed step is recorded and reported; --stop-on-error stops there", async () => {
  const dir = tempDir();
  try {
    const playbook = path.join(dir, "failing.jsonc");
    writeFileSync(
      playbook,
      JSON.stringify({
        steps: [
          { call: "echo", arguments: { message: "one" } },
          { call: "get-sum", arguments: { a: 1, b: "not a number" } },
          { request: "no/such-method" },
          { call: "echo", arguments: { message: "three" } },
        ],
      }),
    );
    const all = path.join(dir, "all.cassette.jsonl");
    const went = await run([
      ...CLI,
      "record",
      "--script",
      playbook,
      "-o",
      all,
      "--",
      ...EVERYTHING,
    ]);
    assert.equal(went.code, 1, went.stderr);
    assert.match(went.stderr, /step 2 call get-sum: failed: the tool reported an error/);
    assert.match(
      went.stderr,
      /step 3 request no\/such-method: failed: no\/such-method failed: .*\(-32601\)/,
    );
    assert.match(went.stderr, /step 4 call echo: ok/);
    assert.equal(clientRequests(all, "tools/call").length, 3);
    assert.equal(clientRequests(all, "no/such-method").length, 1);

    const stopped = path.join(dir, "stopped.cassette.jsonl");
    const halted = await run([
      ...CLI,
      "record",
      "--script",
      playbook,
      "--stop-on-error",
      "-o",
      stopped,
      "--",
      ...EVERYTHING,
    ]);
    assert.equal(halted.code, 1, halted.stderr);
    assert.match(halted.stderr, /step 4 call echo: not run: stopped after step 2 failed/);
    assert.match(halted.stderr, /1 ok, 1 failed, 2 not run/);
    assert.equal(clientRequests(stopped, "tools/call").length, 2);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("record --script: a bad playbook is one line naming the file, exit 2, and nothing written", async () => {
  const dir = tempDir();
  try {
    const cases: [string, string, RegExp][] = [
      ["broken.jsonc", '{"steps": [{"call": "echo"', /broken\.jsonc:1:\d+: not valid JSON\/JSONC/],
      [
        "kind.jsonc",
        '{"steps": [{"call": "echo"}, {"cal": "echo"}]}',
        /kind\.jsonc:1:30: steps\[1\]: unknown step kind "cal" \(known: call, read, prompt/,
      ],
      ["broken.toml", "[[steps]\ncall = 1", /broken\.toml:1:9: not valid TOML/],
      ["empty.jsonc", '{"steps": []}', /empty\.jsonc: "steps" must be a list of at least one step/],
    ];
    for (const [name, text, message] of cases) {
      const playbook = path.join(dir, name);
      writeFileSync(playbook, text);
      const cassette = path.join(dir, `${name}.cassette.jsonl`);
      const result = await run([
        ...CLI,
        "record",
        "--script",
        playbook,
        "-o",
        cassette,
        "--",
        ...EVERYTHING,
      ]);
      assert.equal(result.code, 2, `${name}: ${result.stderr}`);
      assert.match(result.stderr, message);
      assert.equal(result.stderr.trim().split("\n").length, 1, result.stderr);
      assert.equal(existsSync(cassette), false, `${name}: nothing is written`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("record --script: a server that cannot start is exit 7, named as the user wrote it", async () => {
  const dir = tempDir();
  try {
    const playbook = path.join(dir, "ping.jsonc");
    writeFileSync(playbook, '{"steps": [{"ping": true}]}');
    const result = await run([
      ...CLI,
      "record",
      "--script",
      playbook,
      "-o",
      path.join(dir, "c.cassette.jsonl"),
      "--",
      path.join(dir, "no-such-server"),
    ]);
    assert.equal(result.code, 7, result.stderr);
    assert.match(
      result.stderr,
      /the server command "[^"]*no-such-server" \(through the recorder\) did not complete initialize/,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
