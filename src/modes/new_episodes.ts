/**
 * Record mode `new_episodes`: replay, and send each request the cassette
 * has no answer for to the live server (started on the first miss, or
 * reached over Streamable HTTP when it is a URL), append
 * the exchange to the cassette marked `appended: true`, and answer the
 * client with the live answer.
 *
 * @module
 */
import { loadCassette } from "../cassette/reader.ts";
import { CassetteWriter } from "../cassette/writer.ts";
import type { Direction, Entry } from "../cassette/format.ts";
import type { Redactor } from "../redact/redactor.ts";
import type { Json, JsonRpcId, JsonRpcMessage } from "../jsonrpc/messages.ts";
import { ErrorCode, errorResponse } from "../jsonrpc/messages.ts";
import type { ReplayOptions } from "../replay/engine.ts";
import { acquireClaim } from "../claim/claim.ts";
import type { Claim } from "../claim/claim.ts";
import { LiveServer } from "./live_server.ts";
import type { LiveLink } from "./live_server.ts";
import { HttpLiveServer } from "./live_http.ts";

/** Options of {@linkcode openNewEpisodes}. */
export interface NewEpisodesOptions {
  /** The cassette, which must exist. */
  cassette: string;
  /** The live server command line (empty when `url` is given). */
  command: string[];
  /** The live server's URL (Streamable HTTP), in place of `command`. */
  url?: string;
  /** The recording this run works for (see src/claim/). */
  group?: string;
  force?: boolean;
  log?: (line: string) => void;
  /** Scrubs the appended exchanges (the cassette's own rules); without it they are kept as sent. */
  redactor?: Redactor;
  /** How long the live server may outstay the end of its input, and SIGTERM (default 3000 ms). */
  graceMs?: number;
}

/** Options of {@linkcode openSpy}: a live server for misses, and nothing written. */
export type SpyOptions = Omit<NewEpisodesOptions, "group" | "force" | "redactor">;

/** A `new_episodes` run in progress: engine options to use, and the clean-up. */
export interface NewEpisodes {
  /** Adds the miss hook (and the handshake capture) to a replay's options. */
  extend(options: ReplayOptions): ReplayOptions;
  /** Exchanges appended so far. */
  readonly appended: number;
  /** The requests the live server answered, in order (`tools/call "stamp"`). */
  readonly answeredLive: string[];
  /** Stops the live server, closes the cassette and releases the claim. */
  close(): Promise<void>;
}

const HANDSHAKE_ID = "mcp-cassette-handshake";

/**
 * Claims the cassette (failing fast if another recording holds it) and
 * prepares the miss hook. Nothing starts until the first miss.
 */
export async function openNewEpisodes(options: NewEpisodesOptions): Promise<NewEpisodes> {
  const { claim } = await acquireClaim(options.cassette, {
    group: options.group,
    // A URL's query may be a token: the claim file names no live server then.
    ...(options.url === undefined ? { command: options.command } : {}),
    onHeld: "fail",
    force: options.force,
    log: options.log,
  });
  try {
    const existing = await loadCassette(options.cassette);
    return new Episodes(
      options,
      claim,
      existing.entries.reduce((last, entry) => Math.max(last, entry.t), 0),
    );
  } catch (error) {
    await claim.release();
    throw error;
  }
}

/**
 * Spy mode (`replay --on-miss live`): misses go to the live server (a command
 * started on the first one, or a URL first reached then), given the
 * session's own handshake, and its answers go
 * to the client; the cassette is neither claimed nor written.
 */
export function openSpy(options: SpyOptions): NewEpisodes {
  return new Episodes(options, undefined, 0);
}

/** How a request is named in the live list: its method, and the tool or prompt name. */
function described(message: JsonRpcMessage): string {
  const params = message.params as { name?: unknown; uri?: unknown } | undefined;
  const name = params?.name ?? params?.uri;
  return typeof name === "string"
    ? `${message.method} ${JSON.stringify(name)}`
    : `${message.method}`;
}

class Episodes implements NewEpisodes {
  #live: LiveLink | undefined;
  #writer: CassetteWriter | undefined;
  #initialize: JsonRpcMessage | undefined;
  #initializedNote: JsonRpcMessage | undefined;
  #start = performance.now();
  #appended = 0;
  readonly answeredLive: string[] = [];
  #queue: Promise<unknown> = Promise.resolve();
  #closed = false;

  constructor(
    readonly options: NewEpisodesOptions,
    /** Undefined in spy mode, which writes nothing. */
    readonly claim: Claim | undefined,
    readonly baseT: number,
  ) {}

  get appended(): number {
    return this.#appended;
  }

  extend(options: ReplayOptions): ReplayOptions {
    return {
      ...options,
      // Every message, matched or not: the live server starts only at the first
      // miss, and is opened with the handshake the client sent earlier.
      observe: (message) => {
        options.observe?.(message);
        this.#observe(message);
      },
      onMiss: (message, context) => this.#forward(message, context?.session),
    };
  }

  /** Keeps the client's handshake, to open the live server the same way. */
  #observe(message: JsonRpcMessage): void {
    if (message === null || typeof message !== "object") return;
    if (message.method === "initialize" && message.id !== undefined) this.#initialize = message;
    if (message.method === "notifications/initialized") this.#initializedNote = message;
  }

  #t(): number {
    return Math.round((this.baseT + performance.now() - this.#start) * 1000) / 1000;
  }

  #append(
    entry: { type: "message"; dir: Direction; msg: Json },
    session: string | undefined,
  ): void {
    if (!this.#writer) return;
    const scrubbed = this.options.redactor
      ? { ...entry, msg: this.options.redactor.message(entry.msg, entry.dir) }
      : entry;
    const withSession = session && session !== "default" ? { ...scrubbed, session } : scrubbed;
    this.#writer!.append({ ...withSession, t: this.#t(), appended: true } as unknown as Entry);
  }

  #forward(
    message: JsonRpcMessage,
    session: string | undefined,
  ): Promise<JsonRpcMessage | undefined> {
    // One exchange at a time: the appended entries stay in request/answer order.
    const next = this.#queue.then(() => this.#exchange(message, session));
    this.#queue = next.catch(() => {});
    return next;
  }

  async #exchange(
    message: JsonRpcMessage,
    session: string | undefined,
  ): Promise<JsonRpcMessage | undefined> {
    if (this.#closed || message.id === undefined || message.id === null) return undefined;
    const live = await this.#ensureLive(message);
    this.options.log?.(
      this.claim
        ? `new episode: forwarding ${message.method} to the live server`
        : `answered live: ${described(message)}`,
    );
    this.#append({ type: "message", dir: "c2s", msg: message as Json }, session);
    live.onOther = (other) => this.#onServerMessage(live, other, session);
    const answer = await live.request(message as JsonRpcMessage & { id: JsonRpcId });
    this.#append({ type: "message", dir: "s2c", msg: answer as Json }, session);
    if (this.#writer) this.#appended++;
    this.answeredLive.push(described(message));
    return answer;
  }

  /** Starts the live server on the first miss and replays the client's handshake to it. */
  async #ensureLive(first: JsonRpcMessage): Promise<LiveLink> {
    if (this.#live) return this.#live;
    if (this.claim) {
      this.#writer = await CassetteWriter.open(this.options.cassette, {
        append: true,
        // Said once; replay goes on answering, and close() exits with the failure.
        onFailure: (error) => {
          error.reported = this.options.log !== undefined;
          this.options.log?.(`${error.message}: replay goes on; nothing more is appended`);
        },
      });
    }
    const url = this.options.url;
    const live = url === undefined
      ? LiveServer.start(this.options.command)
      : HttpLiveServer.start(url);
    this.#live = live;
    if (this.#initialize && first.method !== "initialize") {
      const answer = await live.request({ ...this.#initialize, id: HANDSHAKE_ID });
      if (answer.error) {
        this.options.log?.(`the live server refused the handshake: ${answer.error.message}`);
      }
      await live.notify(
        this.#initializedNote ?? { jsonrpc: "2.0", method: "notifications/initialized" },
      );
    }
    return live;
  }

  /** Notifications during a forwarded exchange are kept; the live server's own requests are declined. */
  #onServerMessage(live: LiveLink, message: JsonRpcMessage, session: string | undefined): void {
    if (this.#closed) return;
    this.#append({ type: "message", dir: "s2c", msg: message as Json }, session);
    if (message.method !== undefined && message.id !== undefined && message.id !== null) {
      void live.notify(
        errorResponse(
          message.id,
          ErrorCode.MethodNotFound,
          "mcp-cassette new_episodes does not relay server requests",
        ),
      );
    }
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#queue.catch(() => {});
    try {
      const ended = await this.#live?.stop(this.options.graceMs);
      if (ended && ended.how !== "exited" && ended.how !== "end-of-input") {
        this.options.log?.(`the live server ended on ${ended.how} after ${ended.stopMs ?? 0} ms`);
      }
      await this.#writer?.close();
    } finally {
      await this.claim?.release();
    }
  }
}
