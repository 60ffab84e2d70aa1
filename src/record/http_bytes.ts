/**
 * The byte-level HTTP recorder: a keep-alive HTTP/1.1 proxy over plain TCP
 * that copies each request's bytes up and the answer's bytes down as they
 * come, one upstream connection per client connection, while the framing
 * reader (./http1.ts) hands each message to the recording
 * (./http_bytes_exchange.ts). Under load it costs about what a bare proxy
 * does, where `Deno.serve` + `fetch` alone cost more than the target allows
 * (issue 24).
 *
 * It forwards what MCP clients send most: a POST of JSON-RPC with a
 * Content-Length, and the GET that opens a session's stream, to a plain
 * `http://` upstream that speaks Streamable HTTP; a session's POSTs wait
 * while its GET stream opens (./http_bytes_openings.ts). A connection that
 * sends anything else (another GET, a DELETE, a chunked or oversized body, a
 * batch over the cap, `Expect`, an upgrade, a head it cannot read, a Host or
 * Origin to refuse) is handed whole, from that request on, to the
 * fetch-based recorder listening on a loopback port of its own, which
 * answers as it always has.
 *
 * @module
 */
import type { TcpConnection, TcpListener } from "../runtime/mod.ts";
import { tcp } from "../runtime/tcp.ts";
import { serveLocal } from "../http/serve.ts";
import { listenOrExplain } from "../http/listen_error.ts";
import type { LocalServer } from "../http/serve.ts";
import { checkHostAndOrigin, exposureOf, parseListen } from "../http/guard.ts";
import { bearerMatches } from "../http/token.ts";
import type { ListenAddress } from "../http/guard.ts";
import { ByteReader, latin1Bytes } from "./http1.ts";
import type { Head } from "./http1.ts";
import { concat, forwardBytes, upstreamFailed } from "./http_bytes_exchange.ts";
import type { ClientSide, UpstreamLink } from "./http_bytes_exchange.ts";
import { StreamOpenings } from "./http_bytes_openings.ts";
import { headForUpstream, planOf, readBody } from "./http_bytes_plan.ts";
import type { Plan } from "./http_bytes_plan.ts";
import type { ClientBody } from "./http_exchange.ts";
import type { HttpRecorder } from "./http_recorder.ts";

/** What {@linkcode serveBytes} needs. */
export interface ByteServeOptions {
  listen?: string;
  idleTimeoutMs?: number;
  requestTimeoutMs?: number;
  maxBodyBytes: number;
  log?: (line: string) => void;
  /** Longest a POST waits for its session's GET stream to open, in ms (./http_bytes_openings.ts). */
  holdMs?: number;
  /** The bearer token every request must carry; one without it goes to the fetch-based path's 401. */
  token?: string;
}

/** The byte-level recorder, listening. */
export interface ByteServer {
  bound: ListenAddress;
  warning?: string;
  close(): Promise<void>;
}

const MAX_HEAD_BYTES = 16 * 1024;
const TIMEOUT_TEXT = "Request Timeout: the request body did not arrive in time\n";

/** Shared by the connections of one server. */
interface Shared {
  recorder: HttpRecorder;
  options: ByteServeOptions;
  bound: ListenAddress;
  fallback: ListenAddress;
  upstreamHost: { hostname: string; port: number };
  cut: number;
  openings: StreamOpenings;
}

/** Starts the byte-level recorder, with the fetch-based one behind it for the rest. */
export async function serveBytes(
  recorder: HttpRecorder,
  options: ByteServeOptions,
): Promise<ByteServer> {
  const requested = parseListen(options.listen);
  const bound: ListenAddress = { ...requested };
  const warning = await exposureOf(bound);
  const fallback: LocalServer = await serveLocal({
    listen: "127.0.0.1:0",
    idleTimeoutMs: options.idleTimeoutMs,
    requestTimeoutMs: options.requestTimeoutMs,
    log: options.log,
    handlerReadsBody: true,
    guardAs: bound,
    token: options.token,
  }, (request, info) => recorder.handle(request, info.bodyDeadline));
  const url = recorder.upstream.url;
  const shared: Shared = {
    recorder,
    options,
    bound,
    fallback: fallback.bound,
    upstreamHost: {
      hostname: url.hostname.replace(/^\[(.*)\]$/, "$1"),
      port: Number(url.port || 80),
    },
    cut: 0,
    openings: new StreamOpenings(options.holdMs),
  };
  const connections = new Set<Connection>();
  const running = new Set<Promise<void>>();
  const address = { hostname: requested.hostname, port: requested.port };
  const listener: TcpListener = await listenOrExplain(address, () =>
    tcp.listen(address, (conn) => {
      const connection = new Connection(conn, shared);
      connections.add(connection);
      const run: Promise<void> = connection.run().catch(() => {}).finally(() => {
        connection.close();
        connections.delete(connection);
        running.delete(run);
      });
      running.add(run);
    })).catch(async (error) => {
      await fallback.close(); // the port was taken: nothing of this recorder stays open
      throw error;
    });
  bound.port = listener.port;
  const idleMs = options.idleTimeoutMs ?? 30_000;
  // One sweep for every connection, rather than a timer set and cleared per request.
  const sweep = setInterval(() => {
    const now = Date.now();
    for (const connection of connections) {
      if (connection.idleSince !== undefined && now - connection.idleSince >= idleMs) {
        connection.close();
      }
    }
  }, Math.max(50, Math.min(1000, idleMs / 4)));
  return {
    bound,
    ...(warning ? { warning } : {}),
    close: async () => {
      clearInterval(sweep);
      listener.close();
      for (const connection of connections) connection.close();
      // What the exchanges cut short record (their ends) lands before the cassette closes.
      await Promise.allSettled([...running]);
      if (shared.cut > 0) {
        options.log?.(`${shared.cut} request(s) cut: their body did not arrive in time`);
      }
      await fallback.close();
    },
  };
}

/** One client connection, and its upstream connection while it has one. */
class Connection {
  /** Since when it has waited for a request (undefined while one is in hand). */
  idleSince: number | undefined;
  #conn: TcpConnection;
  #shared: Shared;
  #reader: ByteReader;
  #writer: WritableStreamDefaultWriter<Uint8Array>;
  #up: UpstreamLink | undefined;
  #gone: Promise<boolean> | undefined;
  /** The connection to the fetch-based recorder, once handed to it. */
  #inner: TcpConnection | undefined;
  #closed = false;

  constructor(conn: TcpConnection, shared: Shared) {
    this.#conn = conn;
    this.#shared = shared;
    this.#reader = new ByteReader(conn.readable);
    this.#writer = conn.writable.getWriter();
  }

  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#dropUpstream();
    this.#inner?.close();
    this.#conn.close();
  }

  #dropUpstream(): void {
    this.#up?.conn.close();
    this.#up = undefined;
  }

  /** Serves requests until the client leaves, or the connection is handed on. */
  async run(): Promise<void> {
    const side: ClientSide = {
      reader: this.#reader,
      writer: this.#writer,
      // Data instead of the end (a client sending on early) stops the watch.
      gone: () =>
        this.#gone ??= this.#reader.fill().then((more) => more ? new Promise(() => {}) : true),
    };
    while (!this.#closed) {
      this.idleSince = Date.now();
      const head = await this.#reader.head(MAX_HEAD_BYTES);
      this.idleSince = undefined;
      if (head === undefined) return;
      const plan = typeof head === "object" ? this.#plan(head) : undefined;
      if (typeof head !== "object" || !plan) return await this.#handOff();
      // Read, the GET counts as sent: its session's POSTs read after it wait for its head.
      const opened = plan.opensStreamOf === undefined
        ? undefined
        : this.#shared.openings.open(plan.opensStreamOf);
      try {
        if (!await this.#bodyIn(head, head.length + plan.length)) return;
        const body = this.#reader.buffered.subarray(head.length, head.length + plan.length);
        // A GET has no body, as the fetch-based path reads it (readClientBody).
        const read = head.start[0] === "GET" ? { text: "" } : readBody(body);
        if (!read || !await this.#connect()) {
          opened?.();
          return await this.#handOff();
        }
        this.#gone = undefined;
        const after = await this.#exchange(head, plan, body, read, side, opened);
        if (after !== "keep" || plan.clientCloses) return;
      } finally {
        opened?.();
      }
    }
  }

  /** A request the forwarding path takes, once its token, Host and Origin are seen to be fine. */
  #plan(head: Head): Plan | undefined {
    const { options, recorder, bound } = this.#shared;
    const plan = planOf(head, recorder, options.maxBodyBytes, options.token !== undefined);
    if (!plan) return undefined;
    const token = options.token;
    if (token !== undefined && !bearerMatches(plan.headers.get("authorization"), token)) {
      return undefined;
    }
    return checkHostAndOrigin(plan, bound) ? undefined : plan;
  }

  async #exchange(
    head: Head,
    plan: Plan,
    bodyBytes: Uint8Array,
    body: ClientBody,
    side: ClientSide,
    opened: (() => void) | undefined,
  ): Promise<"keep" | "close"> {
    const { recorder, openings } = this.#shared;
    const request = { method: head.start[0], headers: plan.headers };
    const client = recorder.open(request, plan.url, body);
    recorder.recordRequest(client);
    // Recorded as it came; sent on once its session's stream is open.
    const held = opened ? undefined : openings.settled(plan.headers.get("mcp-session-id"));
    if (held) await held;
    const bytes = concat([
      headForUpstream(head, plan, recorder.upstream.url.host),
      bodyBytes,
    ]);
    this.#reader.take(head.length + plan.length);
    let after = await forwardBytes(recorder, client, side, this.#up!, bytes, opened);
    if (after === "retry") {
      // The kept-alive connection had been closed by the upstream: once more on a new one.
      this.#dropUpstream();
      after = await this.#connect()
        ? await forwardBytes(recorder, client, side, this.#up!, bytes, opened)
        : await upstreamFailed(recorder, client, side, "could not be reached again");
    }
    if (after !== "keep") this.#dropUpstream();
    return after === "keep" ? "keep" : "close";
  }

  /** Opens the upstream connection if there is none; false when it cannot be reached. */
  async #connect(): Promise<boolean> {
    if (this.#up) return true;
    try {
      const conn = await tcp.connect(this.#shared.upstreamHost);
      this.#up = {
        conn,
        reader: new ByteReader(conn.readable),
        writer: conn.writable.getWriter(),
        used: 0,
      };
      return true;
    } catch {
      // The fetch-based path answers it, and records the failure as it always has.
      return false;
    }
  }

  /**
   * Waits for the body within the request deadline; past it the request is
   * answered 408 and the connection closed, as the fetch-based path does.
   */
  async #bodyIn(head: Head, total: number): Promise<boolean> {
    if (this.#reader.buffered.length >= total) return true;
    const { options } = this.#shared;
    const ms = options.requestTimeoutMs ?? options.idleTimeoutMs ?? 30_000;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<"late">((resolve) => (timer = setTimeout(() => resolve("late"), ms)));
    const arrived = await Promise.race([this.#reader.want(total), late]);
    clearTimeout(timer);
    if (arrived === true) return true;
    if (arrived === "late") {
      this.#shared.cut++;
      const path = head.start[1].split("?")[0];
      options.log?.(
        `cut a ${
          head.start[0]
        } ${path} from ${this.#conn.remoteAddress}: its body did not arrive in time (408)`,
      );
      const reply = `HTTP/1.1 408 Request Timeout\r\nconnection: close\r\n` +
        `content-type: text/plain\r\ncontent-length: ${TIMEOUT_TEXT.length}\r\n\r\n${TIMEOUT_TEXT}`;
      await this.#writer.write(latin1Bytes(reply)).catch(() => {});
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return false;
  }

  /**
   * Hands the connection, from the request in hand on, to the fetch-based
   * recorder: its bytes are piped both ways, untouched.
   */
  async #handOff(): Promise<void> {
    this.#dropUpstream();
    let inner: TcpConnection;
    try {
      inner = await tcp.connect(this.#shared.fallback);
    } catch {
      return;
    }
    this.#inner = inner;
    if (this.#closed) return inner.close();
    const innerWriter = inner.writable.getWriter();
    const upward = (async () => {
      while (true) {
        const chunk = this.#reader.take(this.#reader.buffered.length);
        if (chunk.length > 0) await innerWriter.write(chunk);
        if (!await this.#reader.fill()) break;
      }
      await innerWriter.close();
    })();
    this.#writer.releaseLock();
    const downward = inner.readable.pipeTo(this.#conn.writable);
    await Promise.race([upward, downward]).catch(() => {});
    await Promise.allSettled([downward]);
    inner.close();
  }
}
