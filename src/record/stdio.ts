/**
 * The stdio recorder: starts the real server and sits invisibly between it
 * and the client. Bytes pass through verbatim in both directions; every
 * complete line is written to the cassette before it is forwarded, so a kill
 * at any moment leaves every forwarded frame on disk. The copying runs on two
 * threads of its own where the runtime allows (./threads.ts), else here.
 *
 * @module
 */
import { makeHeader } from "../cassette/format.ts";
import type { Direction } from "../cassette/format.ts";
import { redactCommandLine } from "../redact/mod.ts";
import type { Redactor } from "../redact/mod.ts";
import { CassetteWriter } from "../cassette/writer.ts";
import { lineBatches } from "../cassette/reader.ts";
import { classify } from "../jsonrpc/messages.ts";
import type { Json } from "../jsonrpc/messages.ts";
import { tryParseJson } from "../json/values.ts";
import { ServerUnreachableError, WriteError } from "../errors/errors.ts";
import type { JsonObject } from "../jsonrpc/messages.ts";
import type { LineTooLongError } from "../framing/jsonl.ts";
import { runtime } from "../runtime/mod.ts";
import { ChildStopper } from "../runtime/stop_child.ts";
import type { ChildOutcome } from "../runtime/stop_child.ts";
import type { ChildProcess } from "../runtime/mod.ts";
import { clockNow, elapsed } from "./frames.ts";
import { FrameRecorder } from "./frame_recorder.ts";
import { planSession } from "./session_plan.ts";
import { pump } from "./pump.ts";
import { prepareThreads } from "./threads.ts";
import type { RecorderThreads } from "./threads.ts";

/** What the recorder uses to scrub frames before they reach disk. */
export type FrameRedactor = Redactor;

/** Options of {@linkcode recordStdio}. */
export interface StdioRecordOptions {
  /** The server command line. */
  command: string[];
  /** The cassette to write. */
  output: string;
  redactor?: FrameRedactor;
  /** Where the client's bytes come from (default: this process's stdin). */
  input?: ReadableStream<Uint8Array>;
  /** Where the server's bytes go (default: this process's stdout). */
  output_stream?: WritableStream<Uint8Array>;
  /** Replace a symbolic link at the cassette's path with the new cassette (never writing through it). */
  force?: boolean;
  /** A relaunch of the same command within this many ms appends a session (default 10000). */
  appendWindowMs?: number;
  cwd?: string;
  env?: Record<string, string>;
  /** Labels for the header's `meta` (the library marks which recording wrote the cassette). */
  meta?: JsonObject;
  /** Diagnostics, one line each (a frame that could not be recorded). */
  log?: (line: string) => void;
  /**
   * Copy on threads of its own where the runtime can (./threads.ts); only
   * for this process's own stdin and stdout. Default true.
   */
  threads?: boolean;
  /**
   * Milliseconds a server may outstay the end of its input before SIGTERM,
   * and SIGTERM before SIGKILL (default 3000).
   */
  graceMs?: number;
}

/**
 * Records one stdio session; resolves with the server's exit code.
 *
 * @example
 * ```ts
 * const code = await recordStdio({ command: ["node", "server.js"], output: "s.cassette.jsonl" });
 * ```
 */
export async function recordStdio(options: StdioRecordOptions): Promise<number> {
  // Secrets in the server's arguments must not reach the header either.
  const command = options.redactor
    ? redactCommandLine(options.redactor, options.command)
    : options.command;
  const plan = await planSession(options.output, command, options.appendWindowMs ?? 10_000);
  const failed = onceFailed(options.log);
  const writer: CassetteWriter = await CassetteWriter.open(options.output, {
    header: makeHeader({
      transport: "stdio",
      server: { command },
      ...(options.redactor ? { redaction: options.redactor.info() } : {}),
      ...(options.meta ? { meta: options.meta } : {}),
    }),
    append: plan.append,
    force: options.force,
    onFailure: failed.say,
  });
  failed.writer = writer;
  const child = await spawnServer(options, writer);
  const start = clockNow();
  const session = plan.session;
  writer.append({ type: "session", t: 0, session: session ?? "default", event: "start" });
  // Progress is the cassette's growth: watched only while stopping, so no frame pays for it.
  const stopper = new ChildStopper(
    child,
    options.graceMs,
    async () => (await runtime.stat(writer.writingPath))?.size ?? 0,
  );
  const stopSignals = (["SIGINT", "SIGTERM"] as const).map((signal) =>
    runtime.onSignal(signal, () => stopper.interrupt(signal))
  );
  const failedToStart = child.exited.then(() => undefined, (error: Error) => error);
  // Started once the child is: starting a thread holds the main thread for
  // about 10 ms, which the child's own start-up now covers.
  const threads =
    options.threads !== false && options.input === undefined && options.output_stream === undefined
      ? prepareThreads({
        cassette: writer.writingPath,
        session,
        redactor: options.redactor,
        log: options.log,
        onWriteFailure: (message) => failed.say(new WriteError(message)),
      })
      : undefined;
  const copying = await threads?.run(child, start) ??
    copyOnThisThread(child, writer, { ...options, start, session });
  // The client is gone once its input ends: a server that outstays that is ended.
  void copying.toServer.then(() => stopper.inputEnded());
  const toClient = copying.toClient;
  const startError = await Promise.race([failedToStart, toClient.then(() => undefined)]);
  if (startError) {
    stopSignals.forEach((stop) => stop());
    threads?.stop();
    await writer.abandon();
    throw cannotStart(options.command, startError);
  }
  const outcome = await stopper.ended;
  // What it wrote before exiting is still in the pipe; a process it left
  // behind may hold the pipe open, so that wait has a bound too.
  await untilOrAfter(toClient, stopper.graceMs);
  stopSignals.forEach((stop) => stop());
  await endSession(writer, threads, {
    start,
    session,
    outcome,
    log: options.log,
    keepUnanswered: plan.append,
    command: options.command,
  });
  return outcome.code;
}

/**
 * What the recorder does when a write to the cassette fails (a full disk):
 * the writer stops writing, the session goes on, and this says so once, on
 * whichever thread it happened first.
 */
function onceFailed(log: ((line: string) => void) | undefined) {
  let said = false;
  const state = {
    writer: undefined as CassetteWriter | undefined,
    say(error: WriteError) {
      // A header that cannot be written: the writer's open throws that itself.
      if (state.writer === undefined) return;
      state.writer.fail(error);
      if (said) return;
      said = true;
      error.reported = log !== undefined;
      log?.(`${error.message}: the session goes on; nothing more is recorded`);
    },
  };
  return state;
}

/** Starts the server; one that cannot be started leaves no cassette behind. */
async function spawnServer(
  options: StdioRecordOptions,
  writer: CassetteWriter,
): Promise<ChildProcess> {
  try {
    return runtime.spawn(options.command, {
      stderr: "inherit",
      cwd: options.cwd,
      env: options.env,
    });
  } catch (error) {
    await writer.abandon();
    throw cannotStart(options.command, error as Error);
  }
}

function cannotStart(command: string[], error: Error): ServerUnreachableError {
  return new ServerUnreachableError(
    `Cannot start the server ${JSON.stringify(command.join(" "))}: ${error.message}`,
  );
}

/** Writes the session's end, saying how the server ended, and closes the cassette. */
async function endSession(
  writer: CassetteWriter,
  threads: RecorderThreads | undefined,
  { start, session, outcome, log, keepUnanswered, command }: {
    start: number;
    session?: string;
    outcome: ChildOutcome;
    log?: (line: string) => void;
    /** Appending to a cassette: a session that got no answer is not removed from it. */
    keepUnanswered: boolean;
    command: string[];
  },
): Promise<void> {
  // From here no thread writes: the session's end is the last entry.
  threads?.close();
  if (!keepUnanswered && await unanswered(writer.writingPath)) {
    threads?.stop();
    await discard(writer, command, outcome.code);
  }
  writer.append({
    type: "session",
    t: elapsed(start),
    session: session ?? "default",
    event: "end",
    exitCode: outcome.code,
    reason: outcome.how,
  });
  try {
    await writer.close();
  } finally {
    threads?.stop();
  }
  if (outcome.how !== "exited" && outcome.how !== "end-of-input") {
    const what = outcome.how === "SIGKILL" ? "was killed" : `ended on ${outcome.how}`;
    log?.(`the server ${what} ${outcome.stopMs ?? 0} ms after it was asked to stop`);
  }
}

/** Resolves when `promise` settles or after `ms`, whichever comes first. */
function untilOrAfter(promise: Promise<unknown>, ms: number): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  return Promise.race([
    promise.then(() => {}, () => {}),
    new Promise<void>((resolve) => (timer = setTimeout(resolve, ms))),
  ]).finally(() => clearTimeout(timer));
}

/**
 * Copies both directions on this thread, recording as it goes; resolves
 * with each direction's end. The recording waits only for the
 * server-to-client one: the client may keep its end open after the server
 * is gone.
 */
function copyOnThisThread(
  child: ChildProcess,
  writer: CassetteWriter,
  options: StdioRecordOptions & { start: number; session?: string },
): { toClient: Promise<void>; toServer: Promise<void> } {
  const recorder = new FrameRecorder(writer, options);
  const overlong = (dir: Direction) => (error: LineTooLongError) => recorder.overlong(dir, error);
  const toServer = pump(
    options.input ?? runtime.stdin,
    child.stdin,
    (lines) => recorder.record(lines, "c2s"),
    overlong("c2s"),
  );
  const toClient = pump(
    child.stdout,
    options.output_stream ?? runtime.stdout,
    (lines) => recorder.record(lines, "s2c"),
    overlong("s2c"),
  );
  return { toClient, toServer };
}

/**
 * True when the client asked something and the server answered nothing: a
 * server that failed on its way up. Reads the lines until the first answer
 * (usually the third line).
 */
async function unanswered(path: string): Promise<boolean> {
  let asked = false;
  for await (const batch of lineBatches(path)) {
    for (const line of batch) {
      if (!line.includes('"type":"message"')) continue;
      const entry = tryParseJson(line)?.value as { dir?: string; msg?: Json } | undefined;
      const kind = classify(entry?.msg);
      if (entry?.dir === "c2s" && kind === "request") asked = true;
      if (entry?.dir === "s2c" && (kind === "response" || kind === "error")) return false;
    }
  }
  return asked;
}

/**
 * Drops a recording whose server answered nothing: the cassette that was
 * there before (if any) stays as it was, and the caller hears why.
 */
async function discard(writer: CassetteWriter, command: string[], code: number): Promise<never> {
  const inPlace = writer.writingPath === writer.path;
  await writer.abandon();
  throw new ServerUnreachableError(
    `The server ${
      JSON.stringify(command.join(" "))
    } exited (code ${code}) before answering any request: no cassette was kept${
      inPlace ? "" : ` (${writer.path} is unchanged)`
    }`,
  );
}
