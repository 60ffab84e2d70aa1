/**
 * Frames left in the cassette file (src/cassette/frame_store.ts): a
 * streaming replay reads each request and answer back by its byte range.
 * These cassettes are built to put those ranges to the test: a BOM, CRLF
 * endings, multi-byte and astral characters, spacing and number forms that
 * serialising would change, and invalid UTF-8 (which a range counted from
 * the decoded text would get wrong for every later line).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { closeSync, openSync, readFileSync, writeFileSync, writeSync } from "node:fs";
import path from "node:path";
import { CLI, tempDir } from "../helpers.ts";
import { streamCassette } from "../../src/cassette/reader.ts";
import { ReplayEngine } from "../../src/replay/engine.ts";
import { CassetteFormatError } from "../../src/errors/errors.ts";

const CALLS = 300;
const HEADER = JSON.stringify({
  format: "mcp-cassette",
  version: 2,
  recorder: "frames_on_disk_test",
  created: "2026-12-01T00:00:00.000Z",
  transport: "stdio",
  protocolVersion: "2025-11-25",
  server: { command: ["test-server"], name: "test-server", version: "1.0.0" },
});

/** The recorded answer text of call `i`, in one of five forms. */
function answerText(i: number): string {
  switch (i % 5) {
    case 0:
      return `{"jsonrpc":"2.0","id":${i},"result":{"content":[{"type":"text","text":"héllo wörld ✓ ${i}"}]}}`;
    case 1:
      return `{ "jsonrpc" : "2.0", "id" : ${i} , "result" : {"n": 1.50, "e": 1E2, "content":[{"type":"text","text":"spaced @@${i}"}]} }`;
    case 2:
      return `{"result":{"content":[{"type":"text","text":"\\u00e9scaped ${i} 🎉"}]},"id":${i},"jsonrpc":"2.0"}`;
    case 3:
      return `{"jsonrpc":"2.0","id":${i},"result":{"content":[{"type":"text","text":"bad é@@BYTE ${i}"}]}}`;
    default:
      return `{"jsonrpc":"2.0","id":${i},"result":{"content":[{"type":"text","text":"plain ${i}"}]}}`;
  }
}

function messageLine(dir: string, t: number, msg: string): string {
  return `{"type":"message","t":${t},"dir":"${dir}","msg":${msg}}`;
}

function callText(i: number, id = i): string {
  return `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"echo","arguments":{"i":${i}}}}`;
}

const INITIALIZE = JSON.stringify({
  jsonrpc: "2.0",
  id: "init",
  method: "initialize",
  params: {
    protocolVersion: "2025-11-25",
    capabilities: {},
    clientInfo: { name: "t", version: "1" },
  },
});
const INITIALIZED = `{"jsonrpc":"2.0","method":"notifications/initialized"}`;

/**
 * A last line that replay ignores (raw client bytes), big enough that the CLI
 * replay leaves frames in the file: it holds a smaller cassette's frames as
 * text (src/cassette/reader.ts, `replayReading`).
 */
const PADDING = `{"type":"raw","t":99999,"dir":"c2s","text":"${"p".repeat(1 << 20)}"}`;

/** A cassette's first lines: the header, the session's start, initialize and its answer, initialized. */
const HANDSHAKE = [
  HEADER,
  `{"type":"session","t":0,"session":"default","event":"start"}`,
  messageLine("c2s", 1, INITIALIZE),
  messageLine(
    "s2c",
    2,
    `{"jsonrpc":"2.0","id":"init","result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"test-server","version":"1.0.0"}}}`,
  ),
  messageLine("c2s", 3, INITIALIZED),
];

/**
 * Writes the cassette: BOM first, every third line ended by CRLF, and each
 * "@@" marker turned into a raw 0xFF byte and a space. In an otherwise
 * ASCII line (form 1) that byte is one character as one byte, and the line's
 * ranges still hold; beside "é" (form 3) it can no longer be told where the
 * bytes are from the text.
 */
function writeCassette(dir: string): string {
  const lines = [
    ...HANDSHAKE,
  ];
  for (let i = 0; i < CALLS; i++) {
    lines.push(messageLine("c2s", 10 + 2 * i, callText(i)));
    lines.push(messageLine("s2c", 11 + 2 * i, answerText(i)));
  }
  lines.push(PADDING);
  const text = "\uFEFF" + lines.map((line, n) => line + (n % 3 === 0 ? "\r\n" : "\n")).join("");
  const bytes = Buffer.from(text, "utf8");
  for (let at = bytes.indexOf("@@"); at !== -1; at = bytes.indexOf("@@", at + 2)) {
    bytes[at] = 0xff;
    bytes[at + 1] = 0x20;
  }
  const file = path.join(dir, "odd.cassette.jsonl");
  writeFileSync(file, bytes);
  return file;
}

/** What replay must send for call `i` asked with id `live`: the recorded text, id replaced. */
function expectedAnswer(i: number, live: number): string {
  return answerText(i)
    .replace(`"id":${i},`, `"id":${live},`)
    .replace(`"id" : ${i} ,`, `"id" : ${live} ,`)
    // The raw 0xFF byte decodes to U+FFFD, as every reader of the file sees it.
    .replace("@@", "\uFFFD ");
}

test("replay over stdio sends every answer of a cassette held on disk byte for byte", async () => {
  const file = writeCassette(tempDir());
  assert.ok(readFileSync(file).length > 1 << 20, "frames must be left in the file");
  const child = spawn(CLI[0], [...CLI.slice(1), "replay", "-q", file], {
    stdio: ["pipe", "pipe", "inherit"],
  });
  const answers = new Map<string, string>();
  let buffered = "";
  const all = new Promise<void>((resolve) => {
    child.stdout.setEncoding("utf8");
    child.stdout.on("data", (chunk: string) => {
      buffered += chunk;
      let newline = buffered.indexOf("\n");
      while (newline !== -1) {
        const line = buffered.slice(0, newline);
        buffered = buffered.slice(newline + 1);
        answers.set(String((JSON.parse(line) as { id: unknown }).id), line);
        if (answers.size === CALLS + 1) resolve();
        newline = buffered.indexOf("\n");
      }
    });
  });
  // Asked in reverse, each with a live id of its own.
  const requests = [INITIALIZE, INITIALIZED];
  for (let i = CALLS - 1; i >= 0; i--) requests.push(callText(i, 5000 + i));
  child.stdin.write(requests.join("\n") + "\n");
  await all;
  child.stdin.end();
  await new Promise((resolve) => child.on("exit", resolve));
  for (let i = 0; i < CALLS; i++) {
    assert.equal(answers.get(String(5000 + i)), expectedAnswer(i, 5000 + i), `call ${i}`);
  }
});

/** The engine of a streamed cassette, read to its end. */
async function loadedEngine(file: string): Promise<ReplayEngine> {
  const engine = await ReplayEngine.streaming(await streamCassette(file, { framesOnDisk: true }));
  await engine.loaded;
  return engine;
}

test("requests and answers are read back from the file; a line whose UTF-8 is off keeps its text", async () => {
  const engine = await loadedEngine(writeCassette(tempDir()));
  const triggers = engine.episodes.sessions[0].triggers.filter((t) =>
    t.key.method === "tools/call"
  );
  assert.equal(triggers.length, CALLS);
  for (const [i, trigger] of triggers.entries()) {
    const onDisk = (trigger.response as { fromDisk?: true }).fromDisk === true;
    assert.equal(onDisk, i % 5 !== 3, `call ${i} on disk`);
    assert.equal(trigger.response!.text, expectedAnswer(i, i), `call ${i} text`);
    assert.equal(JSON.stringify(trigger.request.msg), callText(i), `call ${i} request`);
  }
});

test("a cassette changed on disk under the replay is an error naming its line, never another answer", async () => {
  const file = writeCassette(tempDir());
  const engine = await loadedEngine(file);
  const trigger = engine.episodes.sessions[0].triggers.find((t) =>
    t.key.name === "echo" &&
    (t.request.msg.params as { arguments: { i: number } }).arguments.i === 104
  )!;
  assert.match(trigger.response!.text ?? "", /"plain 104"/);
  // Same length, one digit changed: the bytes are where they were, the text is not.
  const bytes = readFileSync(file);
  const at = bytes.indexOf("plain 104");
  const fd = openSync(file, "r+");
  writeSync(fd, Buffer.from("plain 105"), 0, 9, at);
  closeSync(fd);
  assert.throws(
    () => trigger.response!.text,
    (error: unknown) =>
      error instanceof CassetteFormatError &&
      error.line === (trigger.response as unknown as { line: number }).line &&
      /changed on disk/.test(error.message),
  );
  writeFileSync(file, bytes.subarray(0, at - 100));
  assert.throws(() => trigger.response!.text, /changed on disk/);
});

test("the CLI replay stops with exit 2 and one line when its cassette changes under it", async () => {
  const file = writeCassette(tempDir());
  const child = spawn(CLI[0], [...CLI.slice(1), "replay", "-q", file], {
    stdio: ["pipe", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  const exited = new Promise<number | null>((resolve) => child.on("exit", resolve));
  child.stdin.write([INITIALIZE, INITIALIZED, callText(4, 1)].join("\n") + "\n");
  while (stdout.split("\n").length < 3) await new Promise((resolve) => setTimeout(resolve, 20));
  const bytes = readFileSync(file);
  const fd = openSync(file, "r+");
  writeSync(fd, Buffer.from("plain 105"), 0, 9, bytes.indexOf("plain 104"));
  closeSync(fd);
  child.stdin.write(callText(104, 2) + "\n");
  // Generous: it exits within a second here; a replay that keeps serving never does.
  let timer: ReturnType<typeof setTimeout> | undefined;
  const stuck = new Promise<string>((resolve) => (timer = setTimeout(resolve, 30_000, "serving")));
  const code = await Promise.race([exited, stuck]);
  clearTimeout(timer);
  child.kill();
  child.stdin.destroy();
  assert.equal(code, 2);
  assert.match(
    stderr,
    /^mcp-cassette replay: .*odd\.cassette\.jsonl:\d+: the file changed on disk/,
  );
  assert.equal(stderr.trim().split("\n").length, 1, stderr);
  assert.doesNotMatch(stdout, /plain 10[45]/);
});

test("keys held as hashes: two calls with one hash, and one call recorded around a write, answer as recorded", async () => {
  // echo {n: 8899} and echo {n: 382016} have one FNV-1a hash; the book
  // confirms each hit by rebuilding the recorded key from the file.
  const echo = (n: number, id: number) =>
    `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"echo","arguments":{"n":${n}}}}`;
  const write = (id: number) =>
    `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"write","arguments":{}}}`;
  const answer = (id: number, text: string) =>
    `{"jsonrpc":"2.0","id":${id},"result":{"content":[{"type":"text","text":"${text}"}]}}`;
  const lines = [
    ...HANDSHAKE,
    messageLine("c2s", 4, echo(382016, 1)),
    messageLine("s2c", 5, answer(1, "before the write")),
    messageLine("c2s", 6, write(2)),
    messageLine("s2c", 7, answer(2, "written")),
    messageLine("c2s", 8, echo(382016, 3)),
    messageLine("s2c", 9, answer(3, "after the write")),
  ];
  // Padding calls, so that the file is streamed rather than read whole.
  for (let i = 0; i < CALLS; i++) {
    lines.push(messageLine("c2s", 10 + 2 * i, callText(i, 100 + i)));
    lines.push(
      messageLine("s2c", 11 + 2 * i, answerText(i).replace(`"id":${i},`, `"id":${100 + i},`)),
    );
  }
  lines.push(messageLine("c2s", 9000, echo(8899, 4)));
  lines.push(messageLine("s2c", 9001, answer(4, "the other key")));
  lines.push(PADDING);
  const file = path.join(tempDir(), "hashes.cassette.jsonl");
  writeFileSync(file, lines.join("\n") + "\n");
  assert.ok(readFileSync(file).length > 1 << 20, "frames must be left in the file");
  const child = spawn(CLI[0], [...CLI.slice(1), "replay", "-q", file], {
    stdio: ["pipe", "pipe", "inherit"],
  });
  const texts: string[] = [];
  let buffered = "";
  const asked = [echo(8899, 11), echo(382016, 12), write(13), echo(382016, 14)];
  const all = new Promise<void>((resolve) => {
    child.stdout.setEncoding("utf8");
    child.stdout.on("data", (chunk: string) => {
      buffered += chunk;
      for (let cut = buffered.indexOf("\n"); cut !== -1; cut = buffered.indexOf("\n")) {
        texts.push(buffered.slice(0, cut));
        buffered = buffered.slice(cut + 1);
        if (texts.length === asked.length + 1) resolve();
        else if (texts.length > 1) child.stdin.write(asked[texts.length - 1] + "\n");
      }
    });
  });
  child.stdin.write([INITIALIZE, INITIALIZED, asked[0]].join("\n") + "\n");
  await all;
  child.stdin.end();
  await new Promise((resolve) => child.on("exit", resolve));
  const said = texts.slice(1).map((text) =>
    (JSON.parse(text) as { result?: { content: { text: string }[] } }).result?.content[0].text
  );
  assert.deepEqual(said, ["the other key", "before the write", "written", "after the write"]);
});

test("keys the key arena cannot hold (a lone surrogate, one longer than a page takes) still answer", async () => {
  // Over a page (1 MiB) of key: as ASCII, and as 400,000 three-byte characters.
  const long = "x".repeat(1_100_000);
  const wide = "€".repeat(400_000);
  const calls = [
    `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"lone\\ud800","arguments":{}}}`,
    `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo","arguments":{"long":"${long}"}}}`,
    `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"echo","arguments":{"wide":"${wide}"}}}`,
    `{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"echo","arguments":{"small":1}}}`,
  ];
  const lines = [
    ...HANDSHAKE,
    ...calls.flatMap((call, i) => [
      messageLine("c2s", 10 + i, call),
      messageLine("s2c", 20 + i, `{"jsonrpc":"2.0","id":${i + 1},"result":{"n":${i + 1}}}`),
    ]),
  ];
  const file = path.join(tempDir(), "odd-keys.cassette.jsonl");
  writeFileSync(file, lines.join("\n") + "\n");
  const engine = await loadedEngine(file);
  const session = engine.openSession();
  const answers: unknown[] = [];
  const outlet = {
    send: (message: unknown) => (answers.push(message), Promise.resolve()),
    raw: () => Promise.resolve(),
    fault: () => Promise.resolve(false),
  };
  for (const call of [...calls].reverse()) {
    await session.receive({ ...JSON.parse(call), id: 100 }, outlet);
  }
  assert.deepEqual(answers, [4, 3, 2, 1].map((n) => ({ jsonrpc: "2.0", id: 100, result: { n } })));
});

test("an answer given again and again is read from the file once per answer, its request never", async () => {
  const file = writeCassette(tempDir());
  const stream = await streamCassette(file, { framesOnDisk: true });
  const store = stream.store!;
  const reads = new Map<number, number>();
  const text = store.text.bind(store);
  store.text = (start, end, check, line) => {
    reads.set(line, (reads.get(line) ?? 0) + 1);
    return text(start, end, check, line);
  };
  const engine = await ReplayEngine.streaming(stream);
  await engine.loaded;
  const session = engine.openSession();
  const answers: string[] = [];
  const outlet = {
    send: (_: unknown, __: unknown, text?: string) => (answers.push(text!), Promise.resolve()),
    raw: () => Promise.resolve(),
    fault: () => Promise.resolve(false),
  };
  await session.receive(JSON.parse(INITIALIZE), outlet);
  reads.clear();
  for (let live = 0; live < 6; live++) {
    await session.receive(JSON.parse(callText(7, 900 + live)), outlet);
  }
  assert.deepEqual(answers.slice(1), [0, 1, 2, 3, 4, 5].map((n) => expectedAnswer(7, 900 + n)));
  // Call 7's request is line 20 and its answer line 21 (five handshake lines first). Its key
  // is confirmed from the key arena, and nothing about an answer is kept between answers.
  assert.deepEqual([...reads.entries()], [[21, 6]]);
});
