/**
 * The stdio front end of replay: newline-delimited JSON-RPC in, the same out.
 *
 * @module
 */
import { ErrorCode, errorResponse } from "../jsonrpc/messages.ts";
import { LineSplitter } from "../framing/jsonl.ts";
import type { ReplayEngine } from "./engine.ts";
import type { Outlet } from "./outlet.ts";
import { answerBatch, receiveGuarded } from "./batch.ts";
import type { ReplaySession } from "./session.ts";
import type { ReplayReport } from "./report.ts";
import { chunkSource } from "../runtime/immediate.ts";
import type { ChunkSource } from "../runtime/immediate.ts";
import type { JsonRpcMessage } from "../jsonrpc/messages.ts";
import { LineWriter } from "./line_writer.ts";
import { withoutValue } from "../util/churn.ts";

/** Options of {@linkcode serveStdio}. */
export interface StdioServeOptions {
  input: ReadableStream<Uint8Array>;
  output: WritableStream<Uint8Array>;
  log?: (line: string) => void;
  /**
   * Read the input with blocking reads whenever nothing else is pending (no
   * request in progress, the whole cassette read), where the input offers
   * them. Only for a replay that serves nothing but this input: a blocked
   * thread runs no timer and reads no other pipe.
   */
  blockWhenIdle?: boolean;
}

/**
 * Serves one client over a pair of byte streams until the input ends (or a
 * `disconnect` fault fires); resolves with the replay's report.
 */
export async function serveStdio(
  engine: ReplayEngine,
  options: StdioServeOptions,
): Promise<ReplayReport> {
  const out = new LineWriter(options.output);
  let disconnect: () => void = () => {};
  const disconnected = new Promise<"disconnected">((resolve) => {
    disconnect = () => resolve("disconnected");
  });
  const outlet = stdioOutlet(out, () => disconnect(), options.log);
  const session = engine.openSession();
  await session.open(outlet);
  let inFlight = new Set<Promise<void>>();
  const track = (work: Promise<void>) => {
    inFlight.add(work);
    work.catch((error) => options.log?.(`internal error: ${(error as Error).message}`)).finally(
      () => (inFlight = withoutValue(inFlight, work)),
    );
  };
  // A streaming engine reads the rest of the file once the first message is answered
  // (or has failed: its error is the tracker's to report). Only the first: not a
  // promise more on every later message's path.
  let first = true;
  const readOn = () => engine.readOn();
  const handle = (line: string) => {
    const work = handleLine(line, session, outlet, options.log);
    if (work) track(work);
    if (!first) return;
    first = false;
    if (work) work.then(readOn, readOn);
    else readOn();
  };
  const idle = options.blockWhenIdle
    ? () => inFlight.size === 0 && engine.complete && !out.behind && !out.closed
    : undefined;
  const reading = readLines(
    chunkSource(options.input, idle),
    out,
    handle,
    (error) => track(outlet.send(error)),
  );
  // A streaming engine may find a bad line after the first answers: the replay stops with it.
  const loadFailed = engine.failure;
  try {
    await Promise.race([reading, disconnected, loadFailed]);
    if (!out.closed) {
      await Promise.race([Promise.allSettled([...inFlight]), disconnected, loadFailed]);
    }
    // The report covers the whole recording, read to its end.
    await engine.loaded;
  } finally {
    session.close();
    await out.close();
  }
  return await engine.finished();
}

/** The engine's outlet on stdio: a line per message, raw text as it is. */
function stdioOutlet(
  out: LineWriter,
  disconnect: () => void,
  log?: (line: string) => void,
): Outlet {
  return {
    readsAhead: true,
    send: (message, _sse, text) => out.write(text ?? JSON.stringify(message)),
    sendText: (text, pieces) => out.write(text, pieces),
    raw: (text) => out.write(text),
    fault: (fault) => {
      if (fault.kind === "disconnect") {
        out.closed = true;
        disconnect();
        return Promise.resolve(true);
      }
      log?.(`fault ${fault.kind} has no meaning on stdio; ignored`);
      return Promise.resolve(false);
    },
  };
}

/** One line from the client: a message, a batch, or a parse error; undefined for a blank line. */
function handleLine(
  line: string,
  session: ReplaySession,
  outlet: Outlet,
  log?: (line: string) => void,
): Promise<void> | undefined {
  // A blank line is skipped (one that opens an object or array is not blank: no copy to tell).
  const first = line.charCodeAt(0);
  if (first !== 0x7b && first !== 0x5b && line.trim() === "") return undefined;
  let message: unknown;
  try {
    message = JSON.parse(line);
  } catch {
    return outlet.send(
      errorResponse(null, ErrorCode.ParseError, "Parse error: the line is not valid JSON"),
    );
  }
  if (Array.isArray(message)) return sendBatch(session, message, outlet, log, line);
  return receiveGuarded(session, message, outlet, log, line);
}

/**
 * Reads the client's lines until the input ends or the output closes,
 * pausing while the client is behind on what it was sent.
 */
async function readLines(
  source: ChunkSource,
  out: LineWriter,
  handle: (line: string) => void,
  overlong: (error: JsonRpcMessage) => void,
): Promise<void> {
  const splitter = new LineSplitter({
    onOverlong: (error) => overlong(errorResponse(null, ErrorCode.InvalidRequest, error.message)),
  });
  try {
    while (!out.closed) {
      const value = await source.next();
      if (value === undefined) break;
      for (const line of splitter.push(value)) {
        // One chunk may hold many requests: wait for the client between them.
        if (out.behind) await out.caughtUp();
        if (out.closed) break;
        handle(line);
      }
    }
    const { lines, rest } = splitter.end();
    if (rest !== undefined) lines.push(splitter.finish(rest));
    for (const line of lines) if (!out.closed) handle(line);
  } catch {
    // The input broke: the session ends as if it had closed.
  }
}

/** A batch's answers go back as one array, on one line. */
async function sendBatch(
  session: ReplaySession,
  batch: unknown[],
  outlet: Outlet,
  log: ((line: string) => void) | undefined,
  text: string,
): Promise<void> {
  const answers = await answerBatch(session, batch, outlet, log, text);
  if (answers !== undefined) await outlet.raw(answers);
}
