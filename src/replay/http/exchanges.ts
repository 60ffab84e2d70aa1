/**
 * The HTTP side of a recording, indexed for the replay server: per exchange
 * number, how the recorded response came (status, JSON or SSE, how it
 * ended, how many events its stream carried); per recorded session, what
 * its standalone GET stream did.
 *
 * @module
 */
import type { Cassette } from "../../cassette/reader.ts";
import type { HttpEndEntry, HttpRequestEntry, HttpResponseEntry } from "../../cassette/format.ts";

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

/** Builds the index from a cassette's entries. */
export function indexExchanges(cassette: Cassette): ExchangeIndex {
  const exchanges = new Map<number, RecordedExchange>();
  const getStatus = new Map<string, number>();
  const requestIds = new Map<number, Set<string>>();
  let path: string | undefined;
  const at = (x: number, session: string) => {
    let exchange = exchanges.get(x);
    if (!exchange) exchanges.set(x, exchange = { x, session, events: 0, carriedResponse: false });
    return exchange;
  };
  for (const entry of cassette.entries) {
    if (entry.x === undefined) continue;
    const session = entry.session ?? "default";
    const exchange = at(entry.x, session);
    if (entry.type === "http-request") {
      exchange.request = entry;
      if (path === undefined && entry.method === "POST") path = entry.path.split("?")[0];
    } else if (entry.type === "http-response") {
      exchange.response = entry;
      const request = exchange.request;
      if (
        request?.method === "GET" && !("last-event-id" in request.headers) &&
        !getStatus.has(session)
      ) {
        getStatus.set(session, entry.status);
      }
    } else if (entry.type === "http-end") {
      exchange.end = entry;
    } else if (entry.type === "message" && entry.dir === "c2s") {
      const ids = new Set<string>();
      for (const message of Array.isArray(entry.msg) ? entry.msg : [entry.msg]) {
        const m = message as Record<string, unknown>;
        if (m && typeof m.method === "string" && "id" in m) ids.add(JSON.stringify(m.id));
      }
      requestIds.set(entry.x, ids);
    } else if (
      (entry.type === "message" || entry.type === "sse-event") && entry.sse?.stream !== "get"
    ) {
      exchange.events++;
      if (entry.type === "message") {
        const ids = requestIds.get(entry.x);
        for (const message of Array.isArray(entry.msg) ? entry.msg : [entry.msg]) {
          const m = message as Record<string, unknown>;
          if (m && m.method === undefined && ids?.has(JSON.stringify(m.id))) {
            exchange.carriedResponse = true;
          }
        }
      }
    }
  }
  return { exchanges, getStatus, path };
}
