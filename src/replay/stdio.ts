/**
 * The stdio front end of replay: newline-delimited JSON-RPC in, the same out.
 *
 * @module
 */
import { ErrorCode, errorResponse } from "../jsonrpc.ts";
import type { JsonRpcMessage } from "../jsonrpc.ts";
import { JsonlLineStream } from "../framing/jsonl.ts";
import type { ReplayEngine } from "./engine.ts";
import type { Outlet } from "./outlet.ts";
import type { ReplayReport } from "./report.ts";

const encoder = new TextEncoder();

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
export async function serveStdio(engine: ReplayEngine, options: StdioServeOptions): Promise<ReplayReport> {
  const writer = options.output.getWriter();
  let closed = false;
  let chain = Promise.resolve();
  // One writer, one queue: lines never interleave, whatever finishes first.
  const writeLine = (text: string) => {
    if (closed) return chain;
    chain = chain.then(() => writer.write(encoder.encode(text + "\n"))).catch(() => {
      closed = true;
    });
    return chain;
  };
  let disconnect: () => void = () => {};
  const disconnected = new Promise<"disconnected">((resolve) => {
    disconnect = () => resolve("disconnected");
  });
  const outlet: Outlet = {
    send: (message) => writeLine(JSON.stringify(message)),
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
    work.catch((error) => options.log?.(`internal error: ${(error as Error).message}`)).finally(() => inFlight.delete(work));
  };
  const lines = options.input.pipeThrough(
    new JsonlLineStream({
      onOverlong: (error) => {
        track(outlet.send(errorResponse(null, ErrorCode.InvalidRequest, error.message)));
      },
    }),
  );
  const reading = (async () => {
    for await (const line of lines) {
      if (closed) break;
      if (line.trim() === "") continue;
      let message: unknown;
      try {
        message = JSON.parse(line);
      } catch {
        track(outlet.send(errorResponse(null, ErrorCode.ParseError, "Parse error: the line is not valid JSON")));
        continue;
      }
      if (Array.isArray(message)) track(receiveBatch(session, message, outlet));
      else track(answerFailure(session.receive(message, outlet), message, outlet));
    }
  })().catch(() => {});
  await Promise.race([reading, disconnected]);
  if (!closed) await Promise.race([Promise.allSettled([...inFlight]), disconnected]);
  session.close();
  await chain;
  closed = true;
  await writer.close().catch(() => {});
  return engine.finish();
}

/**
 * A request whose handling failed (a message nested too deeply to fingerprint)
 * still gets an answer: an internal error naming why, never silence.
 */
async function answerFailure(work: Promise<void>, message: unknown, outlet: Outlet): Promise<void> {
  try {
    await work;
  } catch (error) {
    const id = (message as { id?: unknown } | null)?.id;
    const answerable = typeof id === "string" || typeof id === "number";
    await outlet.send(errorResponse(answerable ? id : null, ErrorCode.InternalError, `Internal error: ${(error as Error).message}`));
    throw error;
  }
}

/** A JSON-RPC batch (2025-03-26): the responses go back as one array. */
async function receiveBatch(
  session: ReturnType<ReplayEngine["openSession"]>,
  batch: unknown[],
  outlet: Outlet,
): Promise<void> {
  if (batch.length === 0) {
    await outlet.send(errorResponse(null, ErrorCode.InvalidRequest, "Invalid request: empty batch"));
    return;
  }
  const responses: JsonRpcMessage[] = [];
  const collecting: Outlet = {
    ...outlet,
    send: (message, sse) => {
      if (message.method === undefined && "id" in message) {
        responses.push(message);
        return Promise.resolve();
      }
      return outlet.send(message, sse);
    },
  };
  // A failed member is answered inside the batch (answerFailure); the others still go out.
  await Promise.all(
    batch.map((message) => answerFailure(session.receive(message, collecting), message, collecting).catch(() => {})),
  );
  if (responses.length > 0) await outlet.raw(JSON.stringify(responses));
}
