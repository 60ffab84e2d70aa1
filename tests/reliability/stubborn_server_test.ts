/**
 * A server that ignores SIGTERM, SIGINT and the end of its input
 * (tests/fixtures/reliability/stubborn.ts) does not keep the recorder alive:
 * at the client's EOF, or the recorder's own SIGTERM or SIGINT, the recorder
 * escalates to SIGKILL after the grace, writes the session's end saying
 * how the server ended, removes its claim and exits. The same for `record
 * --mode new_episodes` and `replay --new-episodes`, whose live server is
 * ended the same way.
 *
 * Default: `--grace 300`, threads and the main-thread copy; MCP_CASSETTE_LONG=1
 * adds the default grace.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { copyFileSync, existsSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import process from "node:process";
import { CLI, DENO, ROOT, tempDir } from "../helpers.ts";
import { call, figure, FIXTURE, initialize, LineProcess, LONG } from "./_helpers.ts";

const STUBBORN = [
  DENO,
  "run",
  "-A",
  "--no-check",
  path.join(ROOT, "tests/fixtures/reliability/stubborn.ts"),
];

/** Whether a process is running (a zombie awaiting its parent counts as gone). */
function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return !/State:\s+Z/.test(readFileSync(`/proc/${pid}/status`, "utf8"));
  } catch {
    return false;
  }
}

/** A generous bound on an exit that used to never come (today's figure is well under a second). */
const EXIT_BOUND_MS = 60_000;

/**
 * Waits for `proc` to exit (its own exit: a server it left behind may hold
 * its output open); past the bound it and `orphans` are killed and the test fails.
 */
async function exited(
  proc: LineProcess,
  what: string,
  orphans: (number | undefined)[],
): Promise<number | null> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<"late">((resolve) =>
    timer = setTimeout(() => resolve("late"), EXIT_BOUND_MS)
  );
  const exit = proc.child.exitCode !== null
    ? Promise.resolve(proc.child.exitCode)
    : new Promise<number | null>((resolve) => proc.child.once("exit", (code) => resolve(code)));
  const result = await Promise.race([exit, late]);
  clearTimeout(timer);
  if (result === "late") {
    for (const pid of [proc.child.pid, ...orphans]) {
      try {
        if (pid) process.kill(pid, "SIGKILL");
      } catch {
        // Gone already.
      }
    }
    await proc.closed;
    assert.fail(`${what}: still running after ${EXIT_BOUND_MS} ms`);
  }
  await proc.closed;
  return result;
}

interface Ended {
  ms: number;
  code: number | null;
  end: { exitCode?: number; reason?: string } | undefined;
  childAlive: boolean;
  claimLeft: boolean;
}

/** Records a session with `server`, ends it by `how`, and says what was left. */
async function endRecording(
  how: "eof" | "SIGTERM" | "SIGINT",
  options: { server?: string[]; grace?: number; threads?: boolean } = {},
): Promise<Ended> {
  const dir = tempDir("mcp-cassette-stubborn-");
  try {
    const cassette = path.join(dir, "s.cassette.jsonl");
    const grace = options.grace === undefined ? [] : ["--grace", String(options.grace)];
    const recorder = new LineProcess(
      [...CLI, "record", "-o", cassette, ...grace, "--", ...(options.server ?? STUBBORN)],
      { env: options.threads === false ? { MCP_CASSETTE_RECORDER_THREADS: "0" } : {} },
    );
    recorder.send(initialize());
    await recorder.answer(1);
    recorder.send(call(2, "echo", { n: 2 }));
    const answer = await recorder.answer(2) as { result?: { pid?: number } };
    const childPid = answer.result?.pid;
    const started = Date.now();
    if (how === "eof") recorder.child.stdin.end();
    // Not child.kill: Deno's node:child_process then reports the signal, not the exit code.
    else process.kill(recorder.child.pid!, how);
    const code = await exited(recorder, how, [childPid]);
    const ms = Date.now() - started;
    const entries = readFileSync(cassette, "utf8").trim().split("\n").map((line) =>
      JSON.parse(line)
    );
    const end = entries.find((entry) => entry.type === "session" && entry.event === "end");
    return {
      ms,
      code,
      end,
      childAlive: childPid !== undefined && isAlive(childPid),
      claimLeft: existsSync(`${cassette}.claim`),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function assertKilled(ended: Ended, what: string): void {
  assert.equal(ended.end?.reason, "SIGKILL", `${what}: the session end says how (${ended.ms} ms)`);
  assert.equal(ended.end?.exitCode, 137, what);
  assert.equal(ended.code, 137, `${what}: the recorder exits with the server's code`);
  assert.equal(ended.childAlive, false, `${what}: the server is gone`);
  assert.equal(ended.claimLeft, false, `${what}: the claim is removed`);
}

for (const threads of [true, false]) {
  const copy = threads ? "threads" : "main thread";
  test(`a server that ignores the end of its input is killed after the grace (${copy})`, async () => {
    const ended = await endRecording("eof", { grace: 300, threads });
    assertKilled(ended, "client EOF");
    figure("stubborn-eof", { grace: 300, copy, exitMs: ended.ms });
  });

  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    test(`the recorder told ${signal} ends a server that ignores it (${copy})`, async () => {
      const ended = await endRecording(signal, { grace: 300, threads });
      assertKilled(ended, signal);
      figure("stubborn-signal", { signal, grace: 300, copy, exitMs: ended.ms });
    });
  }
}

test("a server that exits at the end of its input is not signalled", async () => {
  const ended = await endRecording("eof", { server: [...FIXTURE, "serve"], grace: 10_000 });
  assert.equal(ended.end?.reason, "end-of-input");
  assert.equal(ended.end?.exitCode, 0);
  assert.equal(ended.code, 0);
  assert.equal(ended.claimLeft, false);
});

test("--grace must be a number of milliseconds", async () => {
  const recorder = new LineProcess([
    ...CLI,
    "record",
    "-o",
    "x.jsonl",
    "--grace",
    "soon",
    "--",
    "true",
  ]);
  const { code } = await recorder.finish();
  assert.equal(code, 2);
  assert.match(recorder.stderr, /--grace must be a whole number of milliseconds, not soon/);
});

if (LONG) {
  test("with the default grace, a stubborn server is killed after EOF + SIGTERM", async () => {
    const ended = await endRecording("eof");
    assertKilled(ended, "default grace");
    figure("stubborn-eof", { grace: "default", exitMs: ended.ms });
  });
}

/** A cassette to replay: one recorded session with the polite fixture. */
async function recordedCassette(dir: string): Promise<string> {
  const cassette = path.join(dir, "r.cassette.jsonl");
  const recorder = new LineProcess([...CLI, "record", "-o", cassette, "--", ...FIXTURE, "serve"]);
  recorder.send(initialize());
  await recorder.answer(1);
  assert.equal((await recorder.finish()).code, 0);
  return cassette;
}

const NEW_EPISODES = [
  ["record --mode new_episodes", "eof"],
  ["replay --new-episodes", "eof"],
  ["record --mode new_episodes", "SIGTERM"],
] as const;

for (const [how, end] of NEW_EPISODES) {
  test(`${how} ends a stubborn live server and removes its claim (${end})`, async () => {
    const dir = tempDir("mcp-cassette-stubborn-ne-");
    try {
      const cassette = await recordedCassette(dir);
      const copy = path.join(dir, "copy.cassette.jsonl");
      copyFileSync(cassette, copy);
      const command = how.startsWith("record")
        ? [...CLI, "record", "-o", copy, "--mode", "new_episodes", "--grace", "300"]
        : [...CLI, "replay", copy, "--new-episodes"];
      const replay = new LineProcess([...command, "--", ...STUBBORN]);
      replay.send(initialize());
      await replay.answer(1);
      replay.send(call(7, "not-recorded"));
      const answer = await replay.answer(7) as { result?: { pid?: number } };
      const pid = answer.result?.pid;
      assert.ok(pid, `the live server answered the miss: ${JSON.stringify(answer)}`);
      const started = Date.now();
      if (end === "eof") replay.child.stdin.end();
      else process.kill(replay.child.pid!, end);
      await exited(replay, how, [pid]);
      const ms = Date.now() - started;
      assert.equal(isAlive(pid), false, `the live server is gone (${ms} ms)`);
      assert.equal(existsSync(`${copy}.claim`), false, "the claim is removed");
      assert.match(readFileSync(copy, "utf8"), /"appended":true/);
      figure("stubborn-new-episodes", { how, end, exitMs: ms });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
}
