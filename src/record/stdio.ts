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
import { classify } from "../jsonrpc.ts";
import type { Json } from "../jsonrpc.ts";
import { tryParseJson } from "../json.ts";
import { ServerUnreachableError } from "../errors.ts";
import type { JsonObject } from "../jsonrpc.ts";
import type { LineTooLongError } from "../framing/jsonl.ts";
import { runtime } from "../runtime/mod.ts";
import type { ChildProcess } from "../runtime/mod.ts";
import { clockNow, elapsed } from "./frames.ts";
import { FrameRecorder } from "./frame_recorder.ts";
import { planSession } from "./session_plan.ts";
import { pump } from "./pump.ts";
import { prepareThreads } from "./threads.ts";

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
  /** Write through a symlinked cassette path. */
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
  const writer = await CassetteWriter.open(options.output, {
    header: makeHeader({
      transport: "stdio",
      server: { command },
      ...(options.redactor ? { redaction: options.redactor.info() } : {}),
      ...(options.meta ? { meta: options.meta } : {}),
    }),
    append: plan.append,
    followSymlink: options.force,
  });
  let child: ChildProcess;
  try {
    child = runtime.spawn(options.command, {
      stderr: "inherit",
      cwd: options.cwd,
      env: options.env,
    });
  } catch (error) {
    await writer.abandon();
    throw new ServerUnreachableError(
      `Cannot start the server ${JSON.stringify(options.command.join(" "))}: ${
        (error as Error).message
      }`,
    );
  }
  const start = clockNow();
  const session = plan.session;
  writer.append({ type: "session", t: 0, session: session ?? "default", event: "start" });
  const stopSignals = ["SIGINT", "SIGTERM"].map((signal) =>
    runtime.onSignal(
      signal as "SIGINT" | "SIGTERM",
      () => child.kill(signal as "SIGINT" | "SIGTERM"),
    )
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
      })
      : undefined;
  const onThreads = await threads?.run(child, start);
  const toClient = onThreads?.toClient ??
    copyOnThisThread(child, writer, { ...options, start, session });
  const startError = await Promise.race([failedToStart, toClient.then(() => undefined)]);
  if (startError) {
    stopSignals.forEach((stop) => stop());
    threads?.stop();
    await writer.abandon();
    throw new ServerUnreachableError(
      `Cannot start the server ${JSON.stringify(options.command.join(" "))}: ${startError.message}`,
    );
  }
  await toClient;
  const code = await child.exited.catch(() => 1);
  stopSignals.forEach((stop) => stop());
  // From here no thread writes: the session's end is the last entry.
  threads?.close();
  if (!plan.append && await unanswered(writer.writingPath)) {
    threads?.stop();
    await discard(writer, options.command, code);
  }
  writer.append({
    type: "session",
    t: elapsed(start),
    session: session ?? "default",
    event: "end",
    exitCode: code,
  });
  await writer.close();
  threads?.stop();
  return code;
}

/**
 * Copies both directions on this thread, recording as it goes; resolves
 * with the server-to-client direction's end. The client-to-server one is
 * not waited for: the client may keep its end open after the server is gone.
 */
function copyOnThisThread(
  child: ChildProcess,
  writer: CassetteWriter,
  options: StdioRecordOptions & { start: number; session?: string },
): Promise<void> {
  const recorder = new FrameRecorder(writer, options);
  const overlong = (dir: Direction) => (error: LineTooLongError) => recorder.overlong(dir, error);
  void pump(
    options.input ?? runtime.stdin,
    child.stdin,
    (lines) => recorder.record(lines, "c2s"),
    overlong("c2s"),
  );
  return pump(
    child.stdout,
    options.output_stream ?? runtime.stdout,
    (lines) => recorder.record(lines, "s2c"),
    overlong("s2c"),
  );
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
  if (inPlace) await runtime.remove(writer.path);
  throw new ServerUnreachableError(
    `The server ${
      JSON.stringify(command.join(" "))
    } exited (code ${code}) before answering any request: no cassette was kept${
      inPlace ? "" : ` (${writer.path} is unchanged)`
    }`,
  );
}
