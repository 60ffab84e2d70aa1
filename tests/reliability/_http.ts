/**
 * Shared by the HTTP reliability tests: the HTTP fixture server, the
 * recorder in front of it, and a small Streamable HTTP client on `fetch`
 * (keep-alive) that reads JSON and SSE answers and remembers what it fully
 * received.
 */
import path from "node:path";
import { DENO, initializeRequest, ROOT } from "../helpers.ts";
import { startBackground } from "../http/http_helpers.ts";
export { startHttpRecorder } from "../http/http_helpers.ts";
import type { Background } from "../http/http_helpers.ts";

/** The HTTP fixture server (tests/fixtures/reliability/http_server.ts). */
export const HTTP_FIXTURE = [
  DENO,
  "run",
  "-A",
  "--no-check",
  path.join(ROOT, "tests/fixtures/reliability/http_server.ts"),
];

/** Starts the HTTP fixture on a free port; resolves with its MCP URL. */
export async function startHttpFixture(): Promise<Background & { url: string }> {
  const server = await startBackground(HTTP_FIXTURE, /listening on port (\d+)/);
  return { ...server, url: `http://127.0.0.1:${server.found}/mcp` };
}

/** A JSON-RPC message as the tests see it. */
export interface Msg {
  jsonrpc?: string;
  id?: unknown;
  method?: string;
  params?: unknown;
  result?: unknown;
  error?: { code: number; message: string };
}

/** One SSE event as read. */
export interface Event {
  id?: string;
  event?: string;
  data: string;
}

/** Splits complete SSE events off the front of `text`; returns them and the rest. */
export function splitEvents(text: string): { events: Event[]; rest: string } {
  const events: Event[] = [];
  let cut;
  while ((cut = text.indexOf("\n\n")) >= 0) {
    const lines = text.slice(0, cut).split("\n");
    text = text.slice(cut + 2);
    const data = lines.filter((l) => l.startsWith("data:")).map((l) => l.slice(5).trimStart()).join(
      "\n",
    );
    const type = lines.find((l) => l.startsWith("event:"))?.slice(6).trim();
    const id = lines.find((l) => l.startsWith("id:"))?.slice(3).trim();
    if (data !== "" || type) {
      events.push({ ...(id !== undefined ? { id } : {}), ...(type ? { event: type } : {}), data });
    }
  }
  return { events, rest: text };
}

/** What one POST gave back. */
export interface Answer {
  status: number;
  sessionId: string | null;
  /** JSON-RPC messages received (a JSON body, or each SSE event's data). */
  messages: Msg[];
  /** True when the whole response arrived (body read to its end). */
  complete: boolean;
  sse: boolean;
}

/** The headers of a Streamable HTTP POST. */
export function postHeaders(sessionId?: string): Record<string, string> {
  return {
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
    "mcp-protocol-version": "2025-11-25",
    ...(sessionId ? { "mcp-session-id": sessionId } : {}),
  };
}

/**
 * POSTs one message and reads the answer to the end. SSE events are handed
 * to `onEvent` as they arrive (so a test knows what reached the client even
 * when the stream breaks); a broken body gives `complete: false`.
 */
export async function post(
  url: string,
  message: unknown,
  options: { sessionId?: string; signal?: AbortSignal; onEvent?: (message: Msg) => void } = {},
): Promise<Answer> {
  const response = await fetch(url, {
    method: "POST",
    headers: postHeaders(options.sessionId),
    body: JSON.stringify(message),
    signal: options.signal,
  });
  const sessionId = response.headers.get("mcp-session-id");
  const sse = (response.headers.get("content-type") ?? "").startsWith("text/event-stream");
  const messages: Msg[] = [];
  if (!sse) {
    try {
      const text = await response.text();
      if (text.trim() !== "") messages.push(JSON.parse(text));
      return { status: response.status, sessionId, messages, complete: true, sse };
    } catch {
      return { status: response.status, sessionId, messages, complete: false, sse };
    }
  }
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let text = "";
  try {
    while (true) {
      const { done, value } = await reader.read();
      if (done) break;
      const split = splitEvents(text + value);
      text = split.rest;
      for (const event of split.events) {
        if (event.data === "") continue;
        const parsed = JSON.parse(event.data) as Msg;
        messages.push(parsed);
        options.onEvent?.(parsed);
      }
    }
    return { status: response.status, sessionId, messages, complete: true, sse };
  } catch {
    return { status: response.status, sessionId, messages, complete: false, sse };
  }
}

/** An initialize request. */
export function initializeMessage(id: number | string = 0): Msg {
  return initializeRequest(id, "reliability-http") as Msg;
}

/** A tools/call request. */
export function callMessage(
  id: number | string,
  name: string,
  args: Record<string, unknown> = {},
): Msg {
  return { jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: args } };
}

/** Opens a session: initialize, then notifications/initialized; resolves with the session id. */
export async function openSession(url: string, id: number | string = 0): Promise<string> {
  const answer = await post(url, initializeMessage(id));
  if (answer.status !== 200 || !answer.sessionId) {
    throw new Error(`initialize got ${answer.status}`);
  }
  const sessionId = answer.sessionId;
  const initialized = await post(url, { jsonrpc: "2.0", method: "notifications/initialized" }, {
    sessionId,
  });
  if (initialized.status !== 202) {
    throw new Error(`notifications/initialized got ${initialized.status}`);
  }
  return sessionId;
}
