/**
 * `verify --update-failed` and `--only`: a server of ours with no SDK
 * (tests/fixtures/upkeep/nonce_server.mjs: `stamp` answers a random nonce
 * and $STAMP_VALUE, `motd` answers $STAMP_MOTD) is recorded through the real
 * CLI by the official SDK client, with `--secret-env`, then verified against
 * a changed build (other values in its environment); and server-everything
 * over Streamable HTTP, recorded through `record --url`, whose `get-env`
 * answer a new start changes. Only the answers that failed are rewritten;
 * every other line stays byte for byte.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, lstatSync, readdirSync, readFileSync, symlinkSync } from "node:fs";
import path from "node:path";
import { Client, StdioClientTransport, StreamableHTTPClientTransport } from "../sdk.ts";
import { CLI, NODE, run, tempDir } from "../helpers.ts";
import { recordWithSecret, STAMP_SERVER } from "./stamp_server.ts";
import {
  EVERYTHING_HTTP_SCRIPT,
  freePort,
  startBackground,
  startHttpRecorder,
} from "../http/http_helpers.ts";

const SERVER = STAMP_SERVER;
const SECRET = "tok-5e4d3c2b1a09f8e7";
const PLACEHOLDER = "[SECRET:STAMP_SECRET]";

/** The build as recorded: its stamp answers carry the secret. */
const OLD_BUILD = { STAMP_SECRET: SECRET, STAMP_VALUE: `${SECRET}/v1`, STAMP_MOTD: undefined };
/** The new build: another stamp value (still holding the secret) and another motd. */
const NEW_BUILD = { STAMP_SECRET: SECRET, STAMP_VALUE: `${SECRET}/v2`, STAMP_MOTD: "bye" };

/** Records tools/list, stamp a, motd, stamp b through the CLI; returns the cassette's path. */
async function recorded(folder = tempDir()): Promise<string> {
  const cassette = path.join(folder, "tools.cassette.jsonl");
  const env: Record<string, string> = { ...process.env as Record<string, string> };
  env.STAMP_SECRET = OLD_BUILD.STAMP_SECRET;
  env.STAMP_VALUE = OLD_BUILD.STAMP_VALUE;
  delete env.STAMP_MOTD;
  const record = recordWithSecret(cassette);
  const client = new Client({ name: "update-failed-test", version: "1.0.0" });
  await client.connect(
    new StdioClientTransport({
      command: record[0],
      args: record.slice(1),
      env,
      stderr: "ignore",
    }),
  );
  try {
    await client.listTools();
    await client.callTool({ name: "stamp", arguments: { label: "a", badge: SECRET } });
    await client.callTool({ name: "motd", arguments: {} });
    await client.callTool({ name: "stamp", arguments: { label: "b" } });
  } finally {
    await client.close();
  }
  const text = readFileSync(cassette, "utf8");
  assert.ok(!text.includes(SECRET), "the recording holds the placeholder, not the secret");
  assert.match(text, /\[SECRET:STAMP_SECRET\]\/v1/);
  return cassette;
}

/** The cassette's lines as they are on disk. */
function lines(file: string): string[] {
  return readFileSync(file, "utf8").split("\n");
}

/** Indices of the lines holding the recorded answer of a tools/call to `tool`. */
function answerLines(all: string[], tool: string): number[] {
  const calls = new Set<string>();
  const found: number[] = [];
  all.forEach((line, i) => {
    if (i === 0 || line === "") return;
    const entry = JSON.parse(line);
    if (entry.type !== "message") return;
    if (entry.dir === "c2s" && entry.msg.params?.name === tool) calls.add(String(entry.msg.id));
    if (entry.dir === "s2c" && calls.has(String(entry.msg.id)) && "result" in entry.msg) {
      found.push(i);
    }
  });
  return found;
}

/** Asserts that every line but those at `changed` is byte for byte what it was. */
function onlyChanged(before: string[], after: string[], changed: number[]): void {
  assert.equal(after.length, before.length);
  before.forEach((line, i) => {
    if (changed.includes(i)) assert.notEqual(after[i], line, `line ${i + 1} rewritten`);
    else assert.equal(after[i], line, `line ${i + 1} kept byte for byte`);
  });
}

function leftovers(folder: string): string[] {
  return readdirSync(folder).filter((name) => name.endsWith(".partial"));
}

function verify(cassette: string, flags: string[], env: Record<string, string | undefined>) {
  return run([...CLI, "verify", cassette, ...flags, "--", ...SERVER], { env });
}

test("--update-failed rewrites only the failed answers; header, other lines and secrets kept", async () => {
  const cassette = await recorded();
  const before = lines(cassette);
  const stamps = answerLines(before, "stamp");
  const [motd] = answerLines(before, "motd");
  assert.equal(stamps.length, 2);

  const updated = await verify(cassette, ["--update-failed"], NEW_BUILD);
  assert.equal(updated.code, 0, updated.stdout + updated.stderr);
  assert.match(updated.stdout, /FAIL #\d+ tools\/call motd/);
  assert.match(
    updated.stderr,
    /rewrote 3 answer\(s\) in .*: #3 tools\/call stamp, #4 tools\/call motd, #5 tools\/call stamp/,
  );
  const after = lines(cassette);
  onlyChanged(before, after, [...stamps, motd]);
  assert.equal(after[0], before[0], "the header (its redaction and secretEnv) is kept");
  for (const i of [...stamps, motd]) {
    const old = JSON.parse(before[i]);
    const now = JSON.parse(after[i]);
    const { msg: oldMsg, ...oldFields } = old;
    const { msg: newMsg, ...newFields } = now;
    assert.deepEqual(newFields, oldFields, "t, dir and session stay as recorded");
    assert.equal(newMsg.id, oldMsg.id, "the recorded id is kept");
  }
  assert.ok(!after.join("\n").includes(SECRET), "the new answers are scrubbed of the secret");
  for (const i of stamps) assert.ok(after[i].includes(`${PLACEHOLDER}/v2`), after[i]);
  assert.match(after[motd], /"text":"bye"/);
  assert.deepEqual(leftovers(path.dirname(cassette)), []);

  // The cassette now says what the new build says: the nonce alone moves, as noise.
  const again = await verify(cassette, ["--fail-on-regression"], NEW_BUILD);
  assert.equal(again.code, 0, again.stdout + again.stderr);
  assert.match(again.stdout, /5 passed, 0 failed/);
});

test("noise is never a failure: --update-failed with nothing failed is one line, exit 2, nothing written", async () => {
  const cassette = await recorded();
  const before = readFileSync(cassette);
  const same = await verify(cassette, ["--update-failed"], OLD_BUILD);
  assert.equal(same.code, 2, same.stdout + same.stderr);
  assert.equal(same.stderr.trim().split("\n").length, 1, same.stderr);
  assert.match(same.stderr, /--update-failed: nothing failed in .*tools\.cassette\.jsonl/);
  assert.deepEqual(readFileSync(cassette), before);
  assert.deepEqual(leftovers(path.dirname(cassette)), []);
});

test("--only limits what is re-sent, graded and rewritten; the others stay as recorded", async () => {
  const cassette = await recorded();
  const before = lines(cassette);
  const stamps = answerLines(before, "stamp");
  const [motd] = answerLines(before, "motd");

  const onlyMotd = await verify(
    cassette,
    ["--update-failed", "--only", "tool=motd", "--json"],
    NEW_BUILD,
  );
  assert.equal(onlyMotd.code, 0, onlyMotd.stderr);
  const report = JSON.parse(onlyMotd.stdout);
  assert.deepEqual(
    report.exchanges.map((e: { method: string; target?: string; status: string }) =>
      `${e.method} ${e.target ?? ""} ${e.status}`.replace("  ", " ")
    ),
    ["initialize skip", "tools/call motd fail"],
    "stamp is not sent; the handshake is sent but not graded",
  );
  assert.deepEqual(report.rewritten, [4]);
  onlyChanged(before, lines(cassette), [motd]);

  // --update with --only rewrites the chosen answers (passing or not), in place.
  const middle = lines(cassette);
  const stampsOnly = await verify(cassette, ["--update", "--only", "tool=stamp"], NEW_BUILD);
  assert.equal(stampsOnly.code, 0, stampsOnly.stderr);
  onlyChanged(middle, lines(cassette), stamps);

  // Nothing the filter chose failed: nothing to rewrite.
  const bytes = readFileSync(cassette);
  const listOnly = await verify(
    cassette,
    ["--update-failed", "--only", "method=tools/list"],
    NEW_BUILD,
  );
  assert.equal(listOnly.code, 2, listOnly.stdout + listOnly.stderr);
  assert.match(listOnly.stderr, /nothing failed/);
  assert.deepEqual(readFileSync(cassette), bytes);
});

test("the new answers go through the cassette's own redaction", async () => {
  const cassette = await recorded();
  const [motd] = answerLines(lines(cassette), "motd");
  const header = JSON.parse(lines(cassette)[0]);
  assert.ok(header.redaction.rules.includes("detector:email"), JSON.stringify(header.redaction));
  const updated = await verify(
    cassette,
    ["--update-failed", "--only", "tool=motd"],
    { ...NEW_BUILD, STAMP_MOTD: "write to ops.lead@example.com" },
  );
  assert.equal(updated.code, 0, updated.stdout + updated.stderr);
  const line = lines(cassette)[motd];
  assert.ok(!line.includes("ops.lead@example.com"), line);
  assert.match(line, /write to \[REDACTED:email/);
});

test("--update writes the fresh recording through the same redaction, and keeps it in the header", async () => {
  const cassette = await recorded();
  const header = JSON.parse(lines(cassette)[0]);
  const updated = await verify(
    cassette,
    ["--update"],
    { ...NEW_BUILD, STAMP_MOTD: "write to ops.lead@example.com" },
  );
  assert.equal(updated.code, 0, updated.stdout + updated.stderr);
  const text = readFileSync(cassette, "utf8");
  assert.ok(!text.includes("ops.lead@example.com"), "the new answer is scrubbed");
  assert.ok(!text.includes(SECRET), "the secret is a placeholder again");
  assert.match(text, /write to \[REDACTED:email/);
  assert.match(text, /\[SECRET:STAMP_SECRET\]\/v2/);
  const fresh = JSON.parse(lines(cassette)[0]);
  assert.deepEqual(fresh.redaction.secretEnv, ["STAMP_SECRET"]);
  assert.deepEqual(fresh.redaction.digest, header.redaction.digest, "keyed as before");
  assert.deepEqual([...fresh.redaction.rules].sort(), [...header.redaction.rules].sort());
  // The fresh cassette still verifies with the real credential put back.
  const again = await verify(cassette, ["--only", "tool=stamp", "--fail-on-regression"], NEW_BUILD);
  assert.equal(again.code, 0, again.stdout + again.stderr);
});

test("a symlinked cassette is refused before anything is sent, and nothing is written", async () => {
  const folder = tempDir();
  const cassette = await recorded(folder);
  const link = path.join(folder, "link.cassette.jsonl");
  symlinkSync(cassette, link);
  const before = readFileSync(cassette);
  const refused = await verify(link, ["--update-failed"], NEW_BUILD);
  assert.equal(refused.code, 2, refused.stdout + refused.stderr);
  assert.equal(refused.stderr.trim().split("\n").length, 1, refused.stderr);
  assert.match(
    refused.stderr,
    /Refusing to write the cassette .*link\.cassette\.jsonl: it is a symbolic link/,
  );
  assert.equal(refused.stdout, "", "no report: the server was never started");
  assert.ok(lstatSync(link).isSymbolicLink());
  assert.deepEqual(readFileSync(cassette), before);
  assert.deepEqual(leftovers(folder), []);
});

test("bad --only values and flags: one line naming them, exit 2, nothing written", async () => {
  const cassette = await recorded();
  const before = readFileSync(cassette);
  const cases: [string[], RegExp][] = [
    [
      ["--update-failed", "--only", "tool=nope"],
      /--only tool=nope matches no recorded exchange in /,
    ],
    [["--only", "method=resources/read"], /--only method=resources\/read matches no recorded/],
    [["--update-failed", "--only", "stamp"], /--only "stamp": expected tool=NAME or method=NAME/],
    [["--only", "tool="], /--only "tool=": expected tool=NAME or method=NAME/],
    [["--only", "prompt=x", "--dry-run"], /--only "prompt=x": expected tool=NAME or method=NAME/],
    [["--update", "--update-failed"], /--update-failed rewrites what failed, --update all/],
  ];
  for (const [flags, message] of cases) {
    const result = await verify(cassette, flags, NEW_BUILD);
    assert.equal(result.code, 2, `${flags.join(" ")}: ${result.stderr}`);
    assert.equal(result.stderr.trim().split("\n").length, 1, result.stderr);
    assert.match(result.stderr, message);
    assert.equal(result.stdout, "");
  }
  assert.deepEqual(readFileSync(cassette), before);
  assert.equal(existsSync(cassette), true);
  assert.deepEqual(leftovers(path.dirname(cassette)), []);
});

/** server-everything over Streamable HTTP, its environment saying which build it is. */
async function everythingHttp(build: string) {
  const port = await freePort();
  const server = await startBackground(
    [NODE, EVERYTHING_HTTP_SCRIPT, "streamableHttp"],
    /listening on port (\d+)/i,
    { env: { PORT: String(port), EVERYTHING_BUILD: build } },
  );
  return { ...server, url: `http://127.0.0.1:${port}/mcp` };
}

test("over Streamable HTTP: server-everything's changed answer is rewritten, the rest kept", async () => {
  const cassette = path.join(tempDir(), "everything.cassette.jsonl");
  const old = await everythingHttp("build-1");
  try {
    const recorder = await startHttpRecorder(old.url, cassette);
    const client = new Client({ name: "update-failed-test", version: "1.0.0" });
    try {
      await client.connect(new StreamableHTTPClientTransport(new URL(recorder.url)));
      await client.callTool({ name: "echo", arguments: { message: "kept" } });
      await client.callTool({ name: "get-env", arguments: {} });
      await client.close();
    } finally {
      await recorder.stop();
    }
  } finally {
    await old.stop();
  }
  const before = lines(cassette);
  const [echo] = answerLines(before, "echo");
  const [env] = answerLines(before, "get-env");
  assert.match(before[env], /build-1/);

  const fresh = await everythingHttp("build-2");
  try {
    const updated = await run([...CLI, "verify", cassette, "--update-failed", "--url", fresh.url]);
    assert.equal(updated.code, 0, updated.stdout + updated.stderr);
    assert.match(updated.stdout, /PASS #\d+ tools\/call echo/);
    assert.match(updated.stderr, /rewrote 1 answer\(s\) in .*: #\d+ tools\/call get-env$/m);
  } finally {
    await fresh.stop();
  }
  const after = lines(cassette);
  onlyChanged(before, after, [env]);
  assert.equal(after[echo], before[echo]);
  assert.match(after[env], /build-2/);
  assert.doesNotMatch(after[env], /build-1/);
  const { msg: _old, ...oldFields } = JSON.parse(before[env]);
  const { msg: _new, ...newFields } = JSON.parse(after[env]);
  assert.equal(typeof oldFields.x, "number", "an answer of an HTTP exchange");
  assert.deepEqual(newFields, oldFields, "t, x, session and sse stay as recorded");
});
