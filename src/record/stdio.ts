/**
 * The stdio recorder: starts the real server and sits invisibly between it
 * and the client. Bytes pass through verbatim in both directions; every
 * complete line is written to the cassette before it is forwarded, so a kill
 * at any moment leaves every forwarded frame on disk.
 *
 * @module
 */
import { makeHeader } from "../cassette/format.ts";
import type { Direction, Entry } from "../cassette/format.ts";
import { redactCommandLine } from "../redact/mod.ts";
import type { Redactor } from "../redact/mod.ts";
import { CassetteWriter } from "../cassette/writer.ts";
import { ServerUnreachableError } from "../errors.ts";
import type { JsonObject } from "../jsonrpc.ts";
import type { LineTooLongError } from "../framing/jsonl.ts";
import { runtime } from "../runtime/mod.ts";
import type { ChildProcess } from "../runtime/mod.ts";
import { elapsed, entryForLine, isBareJson, messageEntryLine, notRecordedText, parseLine } from "./frames.ts";
import { planSession } from "./session_plan.ts";
import { pump } from "./pump.ts";

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
  const command = options.redactor ? redactCommandLine(options.redactor, options.command) : options.command;
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
    child = runtime.spawn(options.command, { stderr: "inherit", cwd: options.cwd, env: options.env });
  } catch (error) {
    await writer.abandon();
    throw new ServerUnreachableError(`Cannot start the server ${JSON.stringify(options.command.join(" "))}: ${(error as Error).message}`);
  }
  const start = performance.now();
  const session = plan.session;
  writer.append({ type: "session", t: 0, session: session ?? "default", event: "start" });
  /**
   * The cassette line for a frame. A message with nothing to redact, as most
   * frames can be seen to hold from their text alone, is kept as its own
   * text; anything else is redacted and serialised.
   */
  const lineFor = (line: string, dir: Direction, t: number): string => {
    if (isBareJson(line) && (!options.redactor || options.redactor.keepsLine(line, dir)) && parseLine(line) !== undefined) {
      return messageEntryLine(line, dir, t, session);
    }
    const entry = entryForLine(line, dir, t, session);
    let scrubbed: Entry = entry;
    try {
      if (options.redactor && entry.type === "raw") scrubbed = { ...entry, text: options.redactor.text(entry.text, dir) };
      else if (options.redactor && entry.type === "message") scrubbed = { ...entry, msg: options.redactor.message(entry.msg, dir) };
    } catch (error) {
      // Unredacted text must not reach the disk: keep a marker in the frame's place.
      return entryLine(notRecorded(dir, `a frame of ${line.length} characters that could not be redacted (${(error as Error).message})`));
    }
    try {
      return entryLine(scrubbed);
    } catch (error) {
      // Nested deeper than JSON.stringify goes: the frame's place is marked.
      return entryLine(notRecorded(dir, `a frame of ${line.length} characters that could not be written (${(error as Error).message})`));
    }
  };
  // One write for all the lines a chunk completed: a burst of small frames
  // costs one system call, not one each.
  const record = (lines: string[], dir: Direction) => {
    const t = elapsed(start);
    let text = "";
    for (const line of lines) text += lineFor(line, dir, t);
    writer.appendLines(text);
  };
  /** A frame that was forwarded but cannot be kept: the cassette and stderr say so. */
  const notRecorded = (dir: Direction, what: string): Entry => {
    options.log?.(`${what} (${dir}) was forwarded but not recorded`);
    return { type: "raw", t: elapsed(start), ...(session === undefined ? {} : { session }), dir, text: notRecordedText(what) };
  };
  const stopSignals = ["SIGINT", "SIGTERM"].map((signal) =>
    runtime.onSignal(signal as "SIGINT" | "SIGTERM", () => child.kill(signal as "SIGINT" | "SIGTERM"))
  );
  const failedToStart = child.exited.then(() => undefined, (error: Error) => error);
  const overlong = (dir: Direction) => (error: LineTooLongError) =>
    writer.append(notRecorded(dir, `a line longer than the cap of ${error.maxChars} characters`));
  const toServer = pump(options.input ?? runtime.stdin, child.stdin, (lines) => record(lines, "c2s"), overlong("c2s"));
  const toClient = pump(
    child.stdout,
    options.output_stream ?? runtime.stdout,
    (lines) => record(lines, "s2c"),
    overlong("s2c"),
  );
  const startError = await Promise.race([failedToStart, toClient.then(() => undefined)]);
  if (startError) {
    stopSignals.forEach((stop) => stop());
    await writer.abandon();
    throw new ServerUnreachableError(
      `Cannot start the server ${JSON.stringify(options.command.join(" "))}: ${startError.message}`,
    );
  }
  await toClient;
  const code = await child.exited.catch(() => 1);
  stopSignals.forEach((stop) => stop());
  void toServer;
  writer.append({ type: "session", t: elapsed(start), session: session ?? "default", event: "end", exitCode: code });
  await writer.close();
  return code;
}

/** One serialised cassette line. */
function entryLine(entry: Entry): string {
  return JSON.stringify(entry) + "\n";
}
