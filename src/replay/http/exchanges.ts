/**
 * The HTTP side of a recording, indexed for the replay server: per exchange
 * number, how the recorded response came (status, JSON or SSE, how it
 * ended, how many events its stream carried); per recorded session, what
 * its standalone GET stream did.
 *
 * @module
 */
import type { Cassette } from "../../cassette/reader.ts";
import type {
  Entry,
  HttpEndEntry,
  HttpRequestEntry,
  HttpResponseEntry,
} from "../../cassette/format.ts";

/** One recorded HTTP exchange. */
export interface RecordedExchange {
  x: number;
  session: string;
  request?: HttpRequestEntry;
  response?: HttpResponseEntry;
  end?: HttpEndEntry;
  /** Events (messages and bare events) that came on this exchange's own stream. */
  events: number;
  /** True when the answer to the POSTed request came on this exchange's stream or body. */
  carriedResponse: boolean;
}

/** The index. */
export interface ExchangeIndex {
  exchanges: Map<number, RecordedExchange>;
  /** Recorded session name → status of its first standalone GET (no Last-Event-ID). */
  getStatus: Map<string, number>;
  /** The path the client used (from the first request), e.g. `/mcp`. */
  path?: string;
}

/**
 * Builds the index entry by entry: the episode builder feeds it in the same
 * pass over the cassette that groups the sessions (./../episodes.ts), so the
 * cassette is read for replay once.
 */
export class ExchangeIndexer {
  readonly index: ExchangeIndex = { exchanges: new Map(), getStatus: new Map() };
  #requestIds = new Map<number, Set<string>>();

  /** The exchange an entry belongs to, made on first sight. */
  exchange(x: number, session: string): RecordedExchange {
    let exchange = this.index.exchanges.get(x);
    if (!exchange) {
      this.index.exchanges.set(x, exchange = { x, session, events: 0, carriedResponse: false });
    }
    return exchange;
  }

  add(entry: Entry): void {
    if (entry.x === undefined) return;
    const session = entry.session ?? "default";
    const exchange = this.exchange(entry.x, session);
    if (entry.type === "http-request") {
      exchange.request = entry;
      if (this.index.path === undefined && entry.method === "POST") {
        this.index.path = entry.path.split("?")[0];
      }
    } else if (entry.type === "http-response") this.#response(exchange, entry, session);
    else if (entry.type === "http-end") exchange.end = entry;
    else if (entry.type === "message" && entry.dir === "c2s") {
      this.#requestIds.set(entry.x, requestIdsOf(entry.msg));
    } else if (
      (entry.type === "message" || entry.type === "sse-event") && entry.sse?.stream !== "get"
    ) {
      exchange.events++;
      if (entry.type === "message" && answersRequest(entry.msg, this.#requestIds.get(entry.x))) {
        exchange.carriedResponse = true;
      }
    }
  }

  #response(exchange: RecordedExchange, entry: HttpResponseEntry, session: string) {
    exchange.response = entry;
    const request = exchange.request;
    if (
      request?.method === "GET" && !("last-event-id" in request.headers) &&
      !this.index.getStatus.has(session)
    ) {
      this.index.getStatus.set(session, entry.status);
    }
  }
}

function messagesOf(msg: unknown): Record<string, unknown>[] {
  return (Array.isArray(msg) ? msg : [msg]) as Record<string, unknown>[];
}

function requestIdsOf(msg: unknown): Set<string> {
  const ids = new Set<string>();
  for (const m of messagesOf(msg)) {
    if (m && typeof m.method === "string" && "id" in m) ids.add(JSON.stringify(m.id));
  }
  return ids;
}

function answersRequest(msg: unknown, ids: Set<string> | undefined): boolean {
  return messagesOf(msg).some((m) =>
    m && m.method === undefined && ids?.has(JSON.stringify(m.id)) === true
  );
}

/** Builds the index from a cassette's entries (for a cassette read outside replay). */
export function indexExchanges(cassette: Cassette): ExchangeIndex {
  const indexer = new ExchangeIndexer();
  for (const entry of cassette.entries) indexer.add(entry);
  return indexer.index;
}
