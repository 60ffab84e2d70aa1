/**
 * What every front end does the same way, whatever its transport: a message
 * whose handling failed is answered with an internal error (never silence),
 * and a JSON-RPC batch (2025-03-26) is answered as one array, its members
 * each handled as if sent alone.
 *
 * @module
 */
import { ErrorCode, errorResponse, MAX_BATCH_SIZE } from "../jsonrpc/messages.ts";
import type { JsonRpcMessage } from "../jsonrpc/messages.ts";
import { overriding } from "./outlet.ts";
import type { Outlet } from "./outlet.ts";
import type { ReplaySession } from "./session.ts";
import { keepingIdText, lostIdText, memberTexts } from "./exact_id.ts";

/**
 * Handles one client message; if handling fails (a message nested too deeply
 * to fingerprint, a bug), the client gets a `-32603` answer naming why.
 * Resolves once the answer is sent; `log` hears of the failure. `text`, the
 * message's own text, lets the answer carry the id exactly as written.
 */
export async function receiveGuarded(
  session: ReplaySession,
  message: unknown,
  outlet: Outlet,
  log?: (line: string) => void,
  text?: string,
): Promise<void> {
  const own = text === undefined ? undefined : lostIdText(text, message);
  if (own !== undefined) outlet = keepingIdText(outlet, (message as { id: number }).id, own);
  try {
    await session.receive(message, outlet);
  } catch (error) {
    const why = (error as Error)?.message ?? String(error);
    log?.(`internal error: ${why}`);
    const id = (message as { id?: unknown } | null)?.id;
    const answerable = typeof id === "string" || typeof id === "number";
    await outlet.send(
      errorResponse(answerable ? id : null, ErrorCode.InternalError, `Internal error: ${why}`),
    );
  }
}

/**
 * Answers a batch: each member is handled on its own; what answers a member
 * (a response or an error) is collected, anything else (a notification the
 * recording sent meanwhile) goes out through `outlet` at once. Resolves with
 * the text of the answers as one JSON array, or undefined when no member
 * needed an answer. An empty batch is answered with one error, and members
 * past {@linkcode MAX_BATCH_SIZE} are refused with one error. `text`, the
 * batch's own text, lets each answer carry its id exactly as written.
 */
export async function answerBatch(
  session: ReplaySession,
  batch: readonly unknown[],
  outlet: Outlet,
  log?: (line: string) => void,
  text?: string,
): Promise<string | undefined> {
  if (batch.length === 0) {
    return JSON.stringify(
      errorResponse(null, ErrorCode.InvalidRequest, "Invalid request: empty batch"),
    );
  }
  const answers: string[] = [];
  const collecting = overriding(outlet, {
    sendText: undefined, // Each answer is collected as a message, below.
    send: (message, sse, text) => {
      if (isAnswer(message)) {
        answers.push(text ?? JSON.stringify(message));
        return Promise.resolve();
      }
      return outlet.send(message, sse, text);
    },
  });
  const handled = batch.slice(0, MAX_BATCH_SIZE);
  const texts = text === undefined ? undefined : memberTexts(text, batch);
  await Promise.all(
    handled.map((message, at) => receiveGuarded(session, message, collecting, log, texts?.[at])),
  );
  if (batch.length > MAX_BATCH_SIZE) {
    const refused =
      `Batch too large: ${batch.length} members, at most ${MAX_BATCH_SIZE} are handled; the other ${
        batch.length - MAX_BATCH_SIZE
      } were refused`;
    log?.(refused);
    answers.push(JSON.stringify(errorResponse(null, ErrorCode.InvalidRequest, refused)));
  }
  return answers.length > 0 ? `[${answers.join(",")}]` : undefined;
}

function isAnswer(message: JsonRpcMessage): boolean {
  return message.method === undefined && "id" in message;
}
