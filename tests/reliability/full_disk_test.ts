/**
 * A full disk is a clear error and loses nothing that was written. Each test
 * mounts a real 64 KB tmpfs (we run as root in CI; elsewhere the test skips
 * and says why), fills it, and checks: the client's session goes on, one
 * line on stderr names the file and the cause, the exit code is 9, the
 * files hold whole lines only, and nothing empty or half-made is left.
 */
import { test } from "node:test";
import type { TestContext } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import {
  appendFileSync,
  copyFileSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import path from "node:path";
import { CLI, EVERYTHING, initializeRequest, skipTest, tempDir } from "../helpers.ts";
import { LineProcess } from "./_helpers.ts";
import { callMessage, openSession, post, startHttpFixture, startHttpRecorder } from "./_http.ts";

/** Mounts a 64 KB tmpfs on a fresh folder; undefined (the test skipped) where that is impossible. */
function smallDisk(t: TestContext): string | undefined {
  const dir = tempDir("mcp-cassette-disk-");
  const mounted = spawnSync("mount", ["-t", "tmpfs", "-o", "size=64k", "tmpfs", dir], {
    encoding: "utf8",
  });
  if (mounted.status === 0) return dir;
  skipTest(
    t,
    `cannot mount a 64 KB tmpfs here (${(mounted.stderr || mounted.error?.message || "").trim()})`,
  );
  return undefined;
}

/** Unmounts the disk; lazily, so a process a failed test left holding a file cannot keep it mounted. */
function unmount(dir: string): void {
  spawnSync("umount", ["-l", dir]);
}

/** Fills the disk: a file grown a kilobyte, then a byte, at a time until the disk refuses. */
function fill(dir: string): void {
  const filler = path.join(dir, "filler");
  for (const size of [1024, 1]) {
    try {
      for (;;) appendFileSync(filler, "f".repeat(size));
    } catch {
      // Full at this grain.
    }
  }
}

/** Every line of `file` is a whole JSON document and the file ends with a newline. */
function assertWholeLines(file: string): string[] {
  const text = readFileSync(file, "utf8");
  assert.ok(text.endsWith("\n"), `${file} ends in a torn line`);
  const lines = text.slice(0, -1).split("\n");
  for (const [i, line] of lines.entries()) {
    assert.doesNotThrow(() => JSON.parse(line), `${file}:${i + 1} is not a whole line`);
  }
  return lines;
}

/** The stderr lines that tell of the full disk; exactly one, naming `file`. */
function assertSaidOnce(stderr: string, file: string): void {
  const said = stderr.split("\n").filter((line) => /no space left on device/i.test(line));
  assert.equal(said.length, 1, `expected one line about the full disk, got:\n${stderr}`);
  assert.ok(said[0].includes(file), `the line names ${file}: ${said[0]}`);
  assert.doesNotMatch(stderr, /internal error|^\s+at /m);
}

const INIT = [
  initializeRequest(1, "full-disk"),
  { jsonrpc: "2.0", method: "notifications/initialized" },
];
const BIG = "x".repeat(3000);

for (const threads of ["1", "0"]) {
  test(`stdio recorder (threads ${threads}): a full disk stops the recording, not the session (exit 9)`, async (t) => {
    const disk = smallDisk(t);
    if (!disk) return;
    try {
      const cassette = path.join(disk, "c.cassette.jsonl");
      const client = new LineProcess([...CLI, "record", "-o", cassette, "--", ...EVERYTHING], {
        env: { MCP_CASSETTE_RECORDER_THREADS: threads },
      });
      for (const message of INIT) client.send(message);
      await client.answer(1, 60_000);
      // About 6 KB of cassette per call: the disk fills a third of the way in.
      for (let id = 2; id < 32; id++) {
        client.send(callMessage(id, "echo", { message: `${id}:${BIG}` }));
        const answer = await client.answer(id) as { result?: { content?: { text?: string }[] } };
        assert.match(answer.result?.content?.[0]?.text ?? "", new RegExp(`${id}:x`), `call ${id}`);
      }
      const { code } = await client.finish();
      assert.equal(code, 9, client.stderr);
      assertSaidOnce(client.stderr, cassette);
      const lines = assertWholeLines(cassette);
      assert.match(lines[0], /"format":"mcp-cassette"/);
      assert.deepEqual(readdirSync(disk), ["c.cassette.jsonl"], "a side file or claim was left");
    } finally {
      unmount(disk);
    }
  });
}

test("a claim or header that cannot be written leaves no 0-byte claim or cassette (exit 9)", async (t) => {
  const disk = smallDisk(t);
  if (!disk) return;
  try {
    const cassette = path.join(disk, "c.cassette.jsonl");
    const spare = path.join(disk, "spare");
    writeFileSync(spare, "s"); // one page, freed below for the claim alone
    fill(disk);
    const record = () => {
      const client = new LineProcess([...CLI, "record", "-o", cassette, "--", ...EVERYTHING]);
      for (const message of INIT) client.send(message);
      return client.finish().then(({ code }) => ({ code, stderr: client.stderr }));
    };
    const noClaim = await record();
    assert.equal(noClaim.code, 9, noClaim.stderr);
    assertSaidOnce(noClaim.stderr, `${cassette}.claim`);
    assert.deepEqual(readdirSync(disk).sort(), ["filler", "spare"]);

    rmSync(spare);
    const noHeader = await record();
    assert.equal(noHeader.code, 9, noHeader.stderr);
    assertSaidOnce(noHeader.stderr, cassette);
    assert.deepEqual(readdirSync(disk), ["filler"], "a 0-byte claim or cassette was left");
  } finally {
    unmount(disk);
  }
});

test("new_episodes on a full disk appends no torn line and exits 9", async (t) => {
  const disk = smallDisk(t);
  if (!disk) return;
  try {
    const recorded = path.join(tempDir("mcp-cassette-disk-"), "c.cassette.jsonl");
    const first = new LineProcess([...CLI, "record", "-o", recorded, "--", ...EVERYTHING]);
    for (const message of INIT) first.send(message);
    await first.answer(1, 60_000);
    assert.equal((await first.finish()).code, 0, first.stderr);
    const cassette = path.join(disk, "c.cassette.jsonl");
    copyFileSync(recorded, cassette);
    const before = readFileSync(cassette);
    const spare = path.join(disk, "spare");
    writeFileSync(spare, "s");
    fill(disk);
    rmSync(spare); // a page for the claim; the cassette's last page has what it has

    const client = new LineProcess(
      [...CLI, "record", "--mode", "new_episodes", "-o", cassette, "--", ...EVERYTHING],
    );
    for (const message of INIT) client.send(message);
    await client.answer(1, 60_000);
    client.send(callMessage(2, "echo", { message: `2:${BIG}` }));
    const answer = await client.answer(2, 60_000) as { result?: unknown };
    assert.ok(answer.result, "the live server's answer reached the client");
    const { code } = await client.finish();
    assert.equal(code, 9, client.stderr);
    assertSaidOnce(client.stderr, cassette);
    assertWholeLines(cassette);
    assert.ok(readFileSync(cassette).subarray(0, before.length).equals(before));
  } finally {
    unmount(disk);
  }
});

test("HTTP recorder on a full disk keeps answering, then exits 9", async (t) => {
  const disk = smallDisk(t);
  if (!disk) return;
  const fixture = await startHttpFixture();
  let recorder: Awaited<ReturnType<typeof startHttpRecorder>> | undefined;
  try {
    const cassette = path.join(disk, "h.cassette.jsonl");
    recorder = await startHttpRecorder(fixture.url, cassette);
    const sessionId = await openSession(recorder.url);
    for (let id = 1; id <= 30; id++) {
      const answer = await post(recorder.url, callMessage(id, "echo", { id, big: BIG }), {
        sessionId,
      });
      assert.equal(answer.status, 200, `call ${id}`);
      assert.ok(
        answer.messages.some((message) => message.id === id && message.result),
        `call ${id}`,
      );
    }
    const code = await recorder.stop("SIGINT");
    assertSaidOnce(recorder.output(), cassette);
    // Deno may re-raise a handled SIGINT at exit (see Background.stop), hiding the code.
    if (code !== 0) assert.equal(code, 9, recorder.output());
    assertWholeLines(cassette);
    assert.deepEqual(readdirSync(disk), ["h.cassette.jsonl"]);
  } finally {
    if (recorder?.child.exitCode === null) recorder.child.kill("SIGKILL");
    await fixture.stop("SIGTERM");
    unmount(disk);
  }
});
