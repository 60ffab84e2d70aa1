/**
 * A request id goes back exactly as the client wrote it. `JSON.parse` keeps
 * a number's value, not its text: `12345678901234567890` comes back as
 * `12345678901234567000` and `7.0` as `7`, and a client waiting for its own
 * id would wait for ever. When the id's text is not what `JSON.stringify`
 * writes for the parsed number, the answer to it gets the client's text back;
 * every other id costs one scan of its line for the `id` member.
 *
 * @module
 */
import { elementSpans, memberSpan } from "../json_text.ts";
import type { JsonRpcMessage } from "../jsonrpc.ts";
import type { Outlet } from "./outlet.ts";

/** The id's own text in `text` (one message), when parsing lost it; otherwise undefined. */
export function lostIdText(text: string, message: unknown): string | undefined {
  const id = (message as { id?: unknown } | null)?.id;
  if (typeof id !== "number") return undefined;
  const span = memberSpan(text, ["id"]);
  if (!span) return undefined;
  const own = text.slice(span.start, span.end);
  return own === JSON.stringify(id) ? undefined : own;
}

/** Each batch member's own text, or undefined when no member has a numeric id. */
export function memberTexts(text: string, batch: readonly unknown[]): string[] | undefined {
  const numeric = batch.some((member) =>
    typeof (member as { id?: unknown } | null)?.id === "number"
  );
  if (!numeric) return undefined;
  const spans = elementSpans(text);
  return spans.length === batch.length
    ? spans.map((span) => text.slice(span.start, span.end))
    : undefined;
}

/**
 * `outlet`, writing `own` as the id of the answer to request `id` (the
 * server's own requests and notifications meanwhile pass as they are).
 */
export function keepingIdText(outlet: Outlet, id: number, own: string): Outlet {
  return {
    ...outlet,
    send: (message, sse, text) => {
      if (!answers(message, id)) return outlet.send(message, sse, text);
      const wire = text ?? JSON.stringify(message);
      const span = memberSpan(wire, ["id"]);
      const exact = span ? wire.slice(0, span.start) + own + wire.slice(span.end) : wire;
      return outlet.send(message, sse, exact);
    },
  };
}

function answers(message: JsonRpcMessage, id: number): boolean {
  return message.method === undefined && message.id === id;
}
