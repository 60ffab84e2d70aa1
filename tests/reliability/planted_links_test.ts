/**
 * No write follows a planted link: for every writer, a real symbolic link
 * at the name of the file it used to write aside (or at its target) points
 * at a victim file, and the victim must come out byte for byte as it was.
 * The server is the SDK's everything server from node_modules, the client a
 * JSON-lines client over real pipes.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { lstatSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { CassetteWriter } from "../../src/cassette/writer.ts";
import { CLI, EVERYTHING, initializeRequest, run, tempDir } from "../helpers.ts";
import { LineProcess } from "./_helpers.ts";

const VICTIM_TEXT = "precious: not to be overwritten\n";
const MESSAGES = [
  initializeRequest(1, "links"),
  { jsonrpc: "2.0", method: "notifications/initialized" },
  { jsonrpc: "2.0", id: 2, method: "tools/list" },
];

/**
 * Runs `command` (a recorder or a replay) as the client's server: sends the
 * session, waits for its answers, then ends the input.
 */
async function session(command: string[]): Promise<{ code: number | null; stderr: string }> {
  const client = new LineProcess(command);
  for (const message of MESSAGES) client.send(message);
  await Promise.race([client.answer(2, 60_000), client.closed]);
  const { code } = await client.finish();
  return { code, stderr: client.stderr };
}

/** A folder with a recorded cassette and a victim file beside it. */
async function setUp(): Promise<{ dir: string; cassette: string; victim: string }> {
  const dir = tempDir("mcp-cassette-links-");
  const cassette = path.join(dir, "c.cassette.jsonl");
  const victim = path.join(dir, "victim.txt");
  writeFileSync(victim, VICTIM_TEXT);
  const recorded = await session([...CLI, "record", "-o", cassette, "--", ...EVERYTHING]);
  assert.equal(recorded.code, 0, recorded.stderr);
  return { dir, cassette, victim };
}

/** The victim is as it was, `file` is a regular file, and no side file is left. */
function assertUntouched(dir: string, victim: string, file: string): void {
  assert.equal(readFileSync(victim, "utf8"), VICTIM_TEXT, "the victim was written through a link");
  assert.ok(lstatSync(file).isFile(), `${file} is no longer a regular file`);
  const left = readdirSync(dir).filter((name) => /\.[0-9a-f]{16}\.partial$/.test(name));
  assert.deepEqual(left, [], "a side file was left behind");
}

test("redact: a link planted at <cassette>.partial is not written through", async () => {
  const { dir, cassette, victim } = await setUp();
  symlinkSync(victim, `${cassette}.partial`);
  const redacted = await run([...CLI, "redact", cassette, "--redact", "key:*name*"]);
  assert.equal(redacted.code, 0, redacted.stderr);
  assertUntouched(dir, victim, cassette);
  assert.match(readFileSync(cassette, "utf8"), /"format":"mcp-cassette"/);
});

test("re-recording: a link planted at <cassette>.partial is not written through", async () => {
  const { dir, cassette, victim } = await setUp();
  symlinkSync(victim, `${cassette}.partial`);
  const again = await session(
    [...CLI, "record", "--append-window-ms", "0", "-o", cassette, "--", ...EVERYTHING],
  );
  assert.equal(again.code, 0, again.stderr);
  assertUntouched(dir, victim, cassette);
});

test("verify --update: a link planted at <cassette>.partial is not written through", async () => {
  const { dir, cassette, victim } = await setUp();
  symlinkSync(victim, `${cassette}.partial`);
  const updated = await run([...CLI, "verify", cassette, "--update", "--", ...EVERYTHING]);
  assert.equal(updated.code, 0, updated.stderr);
  assertUntouched(dir, victim, cassette);
});

test("view: a link planted at <out>.tmp is not written through", async () => {
  const { dir, cassette, victim } = await setUp();
  const page = path.join(dir, "page.html");
  symlinkSync(victim, `${page}.tmp`);
  const viewed = await run([...CLI, "view", cassette, "-o", page]);
  assert.equal(viewed.code, 0, viewed.stderr);
  assertUntouched(dir, victim, page);
});

test("prune: a link planted at <out>.tmp is not written through; a linked --report is refused", async () => {
  const { dir, cassette, victim } = await setUp();
  const report = path.join(dir, "run.report.json");
  const replayed = await session([...CLI, "replay", cassette, "--report", report]);
  assert.equal(replayed.code, 0, replayed.stderr);
  const out = path.join(dir, "pruned.cassette.jsonl");
  symlinkSync(victim, `${out}.tmp`);
  const pruned = await run([...CLI, "prune", cassette, "--report", report, "-o", out]);
  assert.equal(pruned.code, 0, pruned.stderr);
  assertUntouched(dir, victim, out);

  const linked = path.join(dir, "linked.report.json");
  symlinkSync(victim, linked);
  const refused = await session([...CLI, "replay", cassette, "--report", linked]);
  assert.equal(refused.code, 2, refused.stderr);
  assert.match(
    refused.stderr,
    /Refusing to write the report .*linked\.report\.json: it is a symbolic link/,
  );
  assert.equal(readFileSync(victim, "utf8"), VICTIM_TEXT);
});

test("the HTTP recorder's held frames: a link planted at <cassette>.pending is refused", async () => {
  const dir = tempDir("mcp-cassette-links-");
  const cassette = path.join(dir, "h.cassette.jsonl");
  const victim = path.join(dir, "victim.txt");
  writeFileSync(victim, VICTIM_TEXT);
  symlinkSync(victim, `${cassette}.pending`);
  // Deferred mode (no header yet) is how the HTTP recorder opens its cassette.
  await assert.rejects(CassetteWriter.open(cassette), /Refusing to write .*\.pending/);
  assert.equal(readFileSync(victim, "utf8"), VICTIM_TEXT);
  assert.deepEqual(readdirSync(dir).sort(), ["h.cassette.jsonl.pending", "victim.txt"]);
});

test("record --run-log: a log path that is a link is refused, not appended through", async () => {
  const { dir, victim } = await setUp();
  const log = path.join(dir, "run.log");
  symlinkSync(victim, log);
  const fresh = path.join(dir, "fresh.cassette.jsonl");
  const recorded = await session(
    [...CLI, "record", "--run-log", log, "-o", fresh, "--", ...EVERYTHING],
  );
  assert.equal(recorded.code, 2, recorded.stderr);
  assert.match(recorded.stderr, /Refusing to write the run log .*run\.log: it is a symbolic link/);
  assert.equal(readFileSync(victim, "utf8"), VICTIM_TEXT);
});

for (const mode of [[], ["--mode", "all"]]) {
  test(`record ${mode.join(" ") || "(no mode)"} -o notes.txt does not replace a file that is not a cassette`, async () => {
    const dir = tempDir("mcp-cassette-links-");
    const notes = path.join(dir, "notes.txt");
    writeFileSync(notes, VICTIM_TEXT);
    const recorded = await session([...CLI, "record", ...mode, "-o", notes, "--", ...EVERYTHING]);
    assert.equal(recorded.code, 2, recorded.stderr);
    assert.match(recorded.stderr, /Refusing to replace .*notes\.txt: it is not a cassette/);
    assert.equal(readFileSync(notes, "utf8"), VICTIM_TEXT);
    assert.deepEqual(readdirSync(dir), ["notes.txt"]);
  });
}
