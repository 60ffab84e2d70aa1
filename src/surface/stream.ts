/**
 * The view of ./messages.ts and ./mod.ts built one entry at a time, for
 * tools that stream a cassette: pairing holds only the requests in flight
 * (and the line each id was last used on), the surface only the listed items.
 * Results equal those of `pairMessages` and `extractSurface` on the whole file.
 *
 * @module
 */
import type { Direction } from "../cassette/format.ts";
import type { LocatedEntry } from "../cassette/reader.ts";
import { feedCassetteFile } from "../cassette/entries.ts";
import type { CassetteSink, CassetteStart } from "../cassette/entries.ts";
import { idKey } from "../jsonrpc/messages.ts";
import type { Json } from "../jsonrpc/messages.ts";
import { isObject } from "../util/helpers.ts";
import { listMessages, paramsOf, pointerToken, resultOf } from "./messages.ts";
import type { Exchange, LocatedMessage } from "./messages.ts";
import { identityFrom, isHandshake, LIST_METHODS } from "./mod.ts";
import type { ServerIdentity, SurfaceItem, SurfaceKind } from "./mod.ts";

/** An exchange with its place among all requests (the order `pairMessages` lists them in). */
export interface OrderedExchange extends Exchange {
  ordinal: number;
}

/** What one message did to the pairing. */
export type PairStep =
  | { kind: "request"; exchange: OrderedExchange; reusedLine?: number }
  | { kind: "answer"; exchange: OrderedExchange }
  | { kind: "orphan" }
  | { kind: "other" };

/** Pairs requests with responses as messages arrive, as `pairMessages` does. */
export class StreamPairing {
  private readonly open = new Map<string, OrderedExchange>();
  /** The line each request key was last used on: enough to name a reuse. */
  private readonly lastLine = new Map<string, number>();
  private requests = 0;
  private messageCount = 0;

  /** The messages of one entry (batches opened), numbered across the cassette. */
  messagesOf(entry: LocatedEntry): LocatedMessage[] {
    const messages = listMessages([entry]);
    for (const message of messages) message.index = this.messageCount++;
    return messages;
  }

  /** How many messages {@linkcode messagesOf} has listed. */
  get messages(): number {
    return this.messageCount;
  }

  /** Takes the next message in file order. */
  push(message: LocatedMessage): PairStep {
    if (message.id === undefined) return { kind: "other" };
    if (message.kind === "request") {
      const key = pairKey(message.session, message.dir, message.id);
      const reusedLine = this.lastLine.get(key);
      this.lastLine.set(key, message.line);
      const exchange: OrderedExchange = { request: message, ordinal: this.requests++ };
      this.open.set(key, exchange);
      return reusedLine === undefined
        ? { kind: "request", exchange }
        : { kind: "request", exchange, reusedLine };
    }
    if (message.kind !== "response" && message.kind !== "error") return { kind: "other" };
    const requestDir: Direction = message.dir === "s2c" ? "c2s" : "s2c";
    const key = pairKey(message.session, requestDir, message.id);
    const exchange = this.open.get(key);
    if (!exchange) return { kind: "orphan" };
    exchange.response = message;
    this.open.delete(key);
    return { kind: "answer", exchange };
  }
}

function pairKey(session: string, requestDir: Direction, id: string | number): string {
  return `${session}\u0000${requestDir}\u0000${idKey(id)}`;
}

/** One recorded list page, without its messages. */
export interface ListPage {
  kind: SurfaceKind;
  session: string;
  /** Whether the request asked for a later page (it continues the previous listing). */
  cursor: boolean;
}

/** The surface as {@linkcode SurfaceBuilder} gives it. */
export interface StreamedSurface {
  /** Every listed item in the order `extractSurface` gives; `list` indexes `lists`. */
  items: SurfaceItem[];
  lists: ListPage[];
  server?: ServerIdentity;
  listed: Set<SurfaceKind>;
  /** The method of the handshake the server identity came from. */
  handshake?: string;
}

interface HeldList extends ListPage {
  ordinal: number;
  items: Omit<SurfaceItem, "list">[];
}

/** Builds the surface from answered exchanges, in whatever order the answers come. */
export class SurfaceBuilder {
  private readonly lists: HeldList[] = [];
  private server?: { ordinal: number; identity: ServerIdentity; method: string };

  /** Takes an exchange when its answer arrives. */
  answered(exchange: OrderedExchange): void {
    const { request, response } = exchange;
    if (request.dir !== "c2s" || !response) return;
    const method = request.method ?? "";
    const result = resultOf(response);
    if (!result) return;
    if (isHandshake(method, result)) {
      // The first handshake by request order, as extractSurface takes it.
      if (!this.server || exchange.ordinal < this.server.ordinal) {
        this.server = { ordinal: exchange.ordinal, identity: identityFrom(exchange)!, method };
      }
      return;
    }
    const spec = LIST_METHODS[method];
    if (!spec || !Array.isArray(result[spec.field])) return;
    const held: HeldList = {
      kind: spec.kind,
      session: request.session,
      cursor: paramsOf(request)?.cursor !== undefined,
      ordinal: exchange.ordinal,
      items: [],
    };
    (result[spec.field] as Json[]).forEach((value, i) => {
      if (!isObject(value)) return;
      const key = value[spec.keyField];
      held.items.push({
        kind: spec.kind,
        key: typeof key === "string" ? key : JSON.stringify(key ?? null),
        value,
        line: response.line,
        pointer: `${response.pointer}/result/${pointerToken(spec.field)}/${i}`,
        session: response.session,
      });
    });
    this.lists.push(held);
  }

  /** The surface, lists in request order. */
  finish(): StreamedSurface {
    const lists = [...this.lists].sort((a, b) => a.ordinal - b.ordinal);
    const surface: StreamedSurface = { items: [], lists: [], listed: new Set() };
    lists.forEach(({ kind, session, cursor, items }, list) => {
      surface.lists.push({ kind, session, cursor });
      surface.listed.add(kind);
      for (const item of items) surface.items.push({ ...item, list });
    });
    if (this.server) {
      surface.server = this.server.identity;
      surface.handshake = this.server.method;
    }
    return surface;
  }
}

/** The surface with one item per kind and key, the last listing winning (as `latestItems`). */
export function latestOf(items: readonly SurfaceItem[]): Map<string, SurfaceItem> {
  const map = new Map<string, SurfaceItem>();
  for (const item of items) map.set(`${item.kind}\u0000${item.key}`, item);
  return map;
}

/** A cassette's surface, for tools that need nothing else of it (diff, lint's baseline). */
export interface FileSurface {
  path: string;
  surface: StreamedSurface;
}

/** Reads only the surface out of a streamed cassette. */
export class SurfaceSink implements CassetteSink {
  private readonly pairing = new StreamPairing();
  private readonly builder = new SurfaceBuilder();
  private path = "";

  /** The header. */
  start(start: CassetteStart): void {
    this.path = start.path;
  }

  /** Each entry. */
  entry(entry: LocatedEntry): void {
    if (entry.type !== "message") return;
    for (const message of this.pairing.messagesOf(entry)) {
      const step = this.pairing.push(message);
      if (step.kind === "answer") this.builder.answered(step.exchange);
    }
  }

  /** A torn last line says nothing about the surface. */
  torn(): void {}

  /** The surface, once every line is in. */
  finish(): FileSurface {
    return { path: this.path, surface: this.builder.finish() };
  }
}

/** The surface of the cassette at `path`, streamed. */
export async function readSurface(path: string): Promise<FileSurface> {
  const sink = new SurfaceSink();
  await feedCassetteFile(path, sink);
  return sink.finish();
}
