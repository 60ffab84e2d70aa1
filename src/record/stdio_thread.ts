/**
 * One direction of the stdio recorder, on a thread of its own (started by
 * ./threads.ts): it reads its source with blocking calls, writes each
 * chunk's complete lines to the cassette, then forwards the chunk. Waiting in
 * a blocking read, rather than on the event loop, is what brings the
 * recorder down to a bare pipe's latency (BENCHMARKS.md).
 *
 * @module
 */
import { CassetteWriter } from "../cassette/writer.ts";
import { runtime } from "../runtime/mod.ts";
import { threadInbox } from "../runtime/thread.ts";
import { createRedactor } from "../redact/mod.ts";
import type { Redactor } from "../redact/mod.ts";
import { FrameRecorder } from "./frame_recorder.ts";
import { pumpBlocking } from "./pump.ts";
import { enterGate, leaveGate } from "./threads.ts";
import type { FromThread, ThreadTask, ToThread } from "./threads.ts";

let prepared: { task: ThreadTask; writer: CassetteWriter; redactor?: Redactor } | undefined;

const post: (message: FromThread) => void = threadInbox((message) =>
  void receive(message as ToThread)
);

async function receive(message: ToThread): Promise<void> {
  if (message.kind === "run") return await run(message.pipe, message.start);
  try {
    prepared = await prepare(message.task);
    post({ kind: "prepared" });
  } catch (error) {
    post({ kind: "failed", message: (error as Error).message });
  }
}

/** Everything but the pipes: the redactor (the same as the main thread's) and the cassette. */
async function prepare(task: ThreadTask) {
  const redactor = task.redact ? await createRedactor(task.redact) : undefined;
  if (JSON.stringify(redactor?.info()) !== JSON.stringify(task.redaction)) {
    throw new Error("the redaction rules read here differ from the recording's");
  }
  const writer = await CassetteWriter.open(task.cassette, {
    append: true,
    onFailure: (error) => post({ kind: "write-failed", message: error.message }),
  });
  return { task, redactor, writer };
}

/** Copies until the source ends: from stdin to the pipe `pipe` (c2s), or from it to stdout (s2c). */
async function run(pipe: string, start: number): Promise<void> {
  const { task, writer, redactor } = prepared!;
  const { dir, gate } = task;
  const recorder = new FrameRecorder(writer, {
    redactor,
    session: task.session,
    start,
    log: (line) => post({ kind: "log", line }),
  });
  const openBlocking = runtime.openBlocking!;
  const from = openBlocking(dir === "c2s" ? "stdin" : pipe, "read");
  const to = openBlocking(dir === "c2s" ? pipe : "stdout", "write");
  post({ kind: "opened" });
  /** Does `work` unless the main thread has closed the recording; false when it has. */
  const whileOpen = (work: () => void): boolean => {
    if (!enterGate(gate)) return false;
    try {
      work();
    } finally {
      leaveGate(gate);
    }
    return true;
  };
  pumpBlocking(
    from,
    to,
    (lines) => whileOpen(() => recorder.record(lines, dir)),
    (error) => void whileOpen(() => recorder.overlong(dir, error)),
  );
  // The child reads the end of its input once this, its only writer, closes.
  from.close();
  to.close();
  // A failed write was reported as it happened; the main thread ends the recording.
  await writer.close().catch(() => {});
  post({ kind: "done" });
}
