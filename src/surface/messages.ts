/**
 * A flat view of the JSON-RPC traffic in a cassette: batches are opened into
 * their members, and each request is paired with its answer. Lint, inspect
 * and diff all read the cassette through this view.
 *
 * @module
 */
import type { Direction } from "../cassette/format.ts";
import type { LocatedEntry } from "../cassette/reader.ts";
import { classify, idKey } from "../jsonrpc/messages.ts";
import type { Json, JsonObject, JsonRpcId, MessageKind } from "../jsonrpc/messages.ts";

/** The name of the session entries without a `session` field belong to. */
export const DEFAULT_SESSION = "default";

/** One JSON-RPC message with where it sits in the cassette. */
export interface LocatedMessage {
  /** Index of this message among all messages of the cassette. */
  index: number;
  entry: LocatedEntry;
  line: number;
  /** JSON pointer of the message inside its line (`/msg`, or `/msg/2` in a batch). */
  pointer: string;
  t: number;
  session: string;
  dir: Direction;
  kind: MessageKind;
  msg: Json;
  method?: string;
  id?: JsonRpcId;
}

/** A request and, when it came, its answer. */
export interface Exchange {
  request: LocatedMessage;
  response?: LocatedMessage;
}

/** Every message of the cassette, in file order. */
export function listMessages(entries: readonly LocatedEntry[]): LocatedMessage[] {
  const out: LocatedMessage[] = [];
  for (const entry of entries) {
    if (entry.type !== "message") continue;
    const members: [Json, string][] = Array.isArray(entry.msg)
      ? entry.msg.map((member, i) => [member, `/msg/${i}`])
      : [[entry.msg, "/msg"]];
    for (const [msg, pointer] of members) {
      const kind = classify(msg);
      const record = (msg !== null && typeof msg === "object" && !Array.isArray(msg))
        ? msg as JsonObject
        : {};
      const id = record.id;
      out.push({
        index: out.length,
        entry,
        line: entry.line,
        pointer,
        t: entry.t,
        session: entry.session ?? DEFAULT_SESSION,
        dir: entry.dir,
        kind,
        msg,
        method: typeof record.method === "string" ? record.method : undefined,
        id: typeof id === "string" || typeof id === "number" ? id : undefined,
      });
    }
  }
  return out;
}

/** What pairing found, including the irregularities lint reports. */
export interface Pairing {
  exchanges: Exchange[];
  /** Responses no earlier request in the session asked for. */
  orphans: LocatedMessage[];
  /** Requests whose id was already in flight (or used) in the same session and direction. */
  duplicates: { first: LocatedMessage; again: LocatedMessage }[];
}

function pairKey(session: string, requestDir: Direction, id: JsonRpcId): string {
  return `${session}\u0000${requestDir}\u0000${idKey(id)}`;
}

/**
 * Pairs requests with responses by id within a session: a request sent one
 * way is answered by a response travelling the other way.
 */
export function pairMessages(messages: readonly LocatedMessage[]): Pairing {
  const exchanges: Exchange[] = [];
  const open = new Map<string, Exchange>();
  const seen = new Map<string, LocatedMessage>();
  const orphans: LocatedMessage[] = [];
  const duplicates: Pairing["duplicates"] = [];
  for (const message of messages) {
    if (message.kind === "request" && message.id !== undefined) {
      const key = pairKey(message.session, message.dir, message.id);
      const earlier = seen.get(key);
      if (earlier) duplicates.push({ first: earlier, again: message });
      seen.set(key, message);
      const exchange: Exchange = { request: message };
      exchanges.push(exchange);
      open.set(key, exchange);
    } else if (
      (message.kind === "response" || message.kind === "error") && message.id !== undefined
    ) {
      const requestDir: Direction = message.dir === "s2c" ? "c2s" : "s2c";
      const key = pairKey(message.session, requestDir, message.id);
      const exchange = open.get(key);
      if (exchange) {
        exchange.response = message;
        open.delete(key);
      } else {
        orphans.push(message);
      }
    }
  }
  return { exchanges, orphans, duplicates };
}

/** The `result` of a response, when it is an object. */
export function resultOf(message: LocatedMessage | undefined): JsonObject | undefined {
  if (!message || message.kind !== "response") return undefined;
  const result = (message.msg as JsonObject).result;
  return result !== null && typeof result === "object" && !Array.isArray(result)
    ? result as JsonObject
    : undefined;
}

/** The `params` of a request, when they are an object. */
export function paramsOf(message: LocatedMessage): JsonObject | undefined {
  const params = (message.msg as JsonObject | null)?.params;
  return params !== null && typeof params === "object" && !Array.isArray(params)
    ? params as JsonObject
    : undefined;
}

/** Escapes one JSON pointer reference token (RFC 6901). */
export function pointerToken(key: string | number): string {
  return String(key).replaceAll("~", "~0").replaceAll("/", "~1");
}
