/**
 * The stdio front end of replay: newline-delimited JSON-RPC in, the same out.
 *
 * @module
 */
import { ErrorCode, errorResponse } from "../jsonrpc.ts";
import { LineSplitter } from "../framing/jsonl.ts";
import type { ReplayEngine } from "./engine.ts";
import type { Outlet } from "./outlet.ts";
import { answerBatch, receiveGuarded } from "./batch.ts";
import type { ReplaySession } from "./session.ts";
import type { ReplayReport } from "./report.ts";
import { chunkSource, writeNowOf } from "../runtime/immediate.ts";

const encoder = new TextEncoder();

/** Output the client has not taken yet, beyond which replay stops reading requests. */
const MAX_UNFLUSHED_BYTES = 1 << 20;

/** Options of {@linkcode serveStdio}. */
export interface StdioServeOptions {
  input: ReadableStream<Uint8Array>;
  output: WritableStream<Uint8Array>;
  log?: (line: string) => void;
}

/**
 * Serves one client over a pair of byte streams until the input ends (or a
 * `disconnect` fault fires); resolves with the replay's report.
 */
export async function serveStdio(
  engine: ReplayEngine,
  options: StdioServeOptions,
): Promise<ReplayReport> {
  const writeNow = writeNowOf(options.output);
  const writer = options.output.getWriter();
  let closed = false;
  // Writes queue in order on the one writer, so lines never interleave. Bytes
  // written but not yet taken by the client are counted: past the bound, the
  // replay stops reading requests until the client catches up.
  let unflushed = 0;
  let lastWrite: Promise<void> = Promise.resolve();
  let drained: (() => void) | undefined;
  const writeLine = (text: string): Promise<void> => {
    if (closed) return lastWrite;
    const bytes = encoder.encode(text + "\n");
    if (writeNow) return writeAtOnce(bytes);
    unflushed += bytes.length;
    lastWrite = writer.write(bytes).then(
      () => {
        unflushed -= bytes.length;
        if (unflushed <= MAX_UNFLUSHED_BYTES) drained?.();
      },
      () => {
        closed = true;
        drained?.();
      },
    );
    return lastWrite;
  };
  /** Written before this returns: nothing is left unflushed. */
  const writeAtOnce = (bytes: Uint8Array): Promise<void> => {
    try {
      writeNow!(bytes);
    } catch {
      closed = true; // The client went away.
    }
    return lastWrite;
  };
  const caughtUp = () => new Promise<void>((resolve) => (drained = resolve));
  let disconnect: () => void = () => {};
  const disconnected = new Promise<"disconnected">((resolve) => {
    disconnect = () => resolve("disconnected");
  });
  const outlet: Outlet = {
    send: (message, _sse, text) => writeLine(text ?? JSON.stringify(message)),
    raw: (text) => writeLine(text),
    fault: (fault) => {
      if (fault.kind === "disconnect") {
        closed = true;
        disconnect();
        return Promise.resolve(true);
      }
      options.log?.(`fault ${fault.kind} has no meaning on stdio; ignored`);
      return Promise.resolve(false);
    },
  };
  const session = engine.openSession();
  await session.open(outlet);
  const inFlight = new Set<Promise<void>>();
  const track = (work: Promise<void>) => {
    inFlight.add(work);
    work.catch((error) => options.log?.(`internal error: ${(error as Error).message}`)).finally(
      () => inFlight.delete(work),
    );
  };
  const handle = (line: string) => {
    // A blank line is skipped (one that opens an object or array is not blank: no copy to tell).
    const first = line.charCodeAt(0);
    if (first !== 0x7b && first !== 0x5b && line.trim() === "") return;
    let message: unknown;
    try {
      message = JSON.parse(line);
    } catch {
      track(
        outlet.send(
          errorResponse(null, ErrorCode.ParseError, "Parse error: the line is not valid JSON"),
        ),
      );
      return;
    }
    if (Array.isArray(message)) track(sendBatch(session, message, outlet, options.log));
    else track(receiveGuarded(session, message, outlet, options.log));
  };
  const splitter = new LineSplitter({
    onOverlong: (error) =>
      track(outlet.send(errorResponse(null, ErrorCode.InvalidRequest, error.message))),
  });
  const source = chunkSource(options.input);
  const reading = (async () => {
    while (!closed) {
      const value = await source.next();
      if (value === undefined) break;
      for (const line of splitter.push(value)) {
        // One chunk may hold many requests: wait for the client between them.
        if (unflushed > MAX_UNFLUSHED_BYTES) await caughtUp();
        if (closed) break;
        handle(line);
      }
    }
    const { lines, rest } = splitter.end();
    if (rest !== undefined) lines.push(splitter.finish(rest));
    for (const line of lines) if (!closed) handle(line);
  })().catch(() => {});
  await Promise.race([reading, disconnected]);
  if (!closed) await Promise.race([Promise.allSettled([...inFlight]), disconnected]);
  session.close();
  await lastWrite;
  closed = true;
  await writer.close().catch(() => {});
  return engine.finish();
}

/** A batch's answers go back as one array, on one line. */
async function sendBatch(
  session: ReplaySession,
  batch: unknown[],
  outlet: Outlet,
  log?: (line: string) => void,
): Promise<void> {
  const answers = await answerBatch(session, batch, outlet, log);
  if (answers !== undefined) await outlet.raw(answers);
}
