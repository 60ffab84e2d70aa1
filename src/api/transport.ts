/**
 * An in-process replay: an object with the official SDK's client
 * `Transport` shape, served straight from a cassette by the replay engine.
 * No subprocess, no pipes, and no import of the SDK (the shape is
 * structural, so this module runs wherever the engine runs).
 *
 * @module
 */
import { visible } from "../text/visible.ts";
import { loadCassette } from "../cassette/reader.ts";
import { UsageError } from "../errors/errors.ts";
import type { JsonRpcMessage } from "../jsonrpc/messages.ts";
import { ReplayEngine } from "../replay/engine.ts";
import type { ReplayOptions } from "../replay/engine.ts";
import type { Outlet } from "../replay/outlet.ts";
import type { ReplayReport } from "../replay/report.ts";
import { ReplayControl } from "../replay/control.ts";
import type { OpenCassette } from "../replay/control.ts";
import type { ReplaySession } from "../replay/session.ts";
import { runtime } from "../runtime/mod.ts";
import { actionFor, resolveRecordMode } from "../modes/mode.ts";
import { checkReport } from "./verdict.ts";
import { parseIgnorePaths } from "../match/ignore_paths.ts";

/** A JSON-RPC message as the SDK hands it to a transport. */
export type TransportMessage = JsonRpcMessage & { jsonrpc: "2.0" };

/**
 * A message as the transport's two SDK-facing ends are typed: the SDK types
 * `params` values as `unknown`, which `Json` does not admit, so with
 * {@linkcode TransportMessage} there a `ReplayTransport` would not
 * type-check as the SDK's `Transport`.
 */
export type SdkMessage = { jsonrpc: "2.0"; [key: string]: unknown };

/** Options of {@linkcode ReplayTransport.open}. */
export interface ReplayTransportOptions extends ReplayOptions {
  /**
   * The record mode; only the replaying ones make sense in process. With
   * `once` or `new_episodes` a missing cassette is an error naming the
   * stdio route that can record it. The `MCP_CASSETTE_MODE` variable wins.
   */
  mode?: string;
  /** Paths left out of matching, e.g. `params.arguments.request_id` (see `--match-ignore`). */
  matchIgnore?: string[];
}

/**
 * The SDK client `Transport` shape, answered from a cassette in this
 * process.
 *
 * @example
 * ```ts
 * import { Client } from "@modelcontextprotocol/sdk/client/index.js";
 * import { ReplayTransport } from "@mcp-cassette/mcp-cassette";
 *
 * const transport = await ReplayTransport.open("tests/cassettes/everything.cassette.jsonl");
 * const client = new Client({ name: "test", version: "1.0.0" });
 * await client.connect(transport);
 * const tools = await client.listTools();
 * await client.close();
 * await transport.finish(); // throws ReplayMissError if a request had no recording
 * ```
 */
export class ReplayTransport {
  /** Set by the client: called with each message the cassette serves. */
  onmessage?: (message: SdkMessage, extra?: unknown) => void;
  /** Set by the client: called when something goes wrong. */
  onerror?: (error: Error) => void;
  /** Set by the client: called once the transport is closed. */
  onclose?: () => void;
  /** The recorded session id, when the cassette has one (HTTP recordings). */
  sessionId?: string;

  #session: ReplaySession | undefined;
  #outlet: Outlet;
  #inFlight = new Set<Promise<void>>();
  #delivery: Promise<void> = Promise.resolve();
  #closed = false;
  #report: ReplayReport | undefined;
  #control: ReplayControl | undefined;
  #open: OpenCassette | undefined;
  /** The engine the session was served from (another than `engine` after a cassette switch). */
  #served: ReplayEngine;
  #protocolVersion: string | undefined;

  /**
   * Wraps an engine; most callers want {@linkcode ReplayTransport.open}.
   * `open` loads another cassette with the same options, for
   * `control.useCassette` (without it, the transport has no cassette switch).
   */
  constructor(readonly engine: ReplayEngine, open?: OpenCassette) {
    this.#served = engine;
    this.#open = open;
    this.#outlet = {
      send: (message) => this.#deliver(message),
      raw: (text) => {
        try {
          return this.#deliver(JSON.parse(text));
        } catch {
          this.onerror?.(
            new Error(`The cassette served a line that is not JSON: ${visible(text.slice(0, 80))}`),
          );
          return Promise.resolve();
        }
      },
      fault: (fault) => {
        if (fault.kind === "disconnect") {
          void this.close();
          return Promise.resolve(true);
        }
        this.#served.options.log?.(`fault ${fault.kind} has no meaning in process; ignored`);
        return Promise.resolve(false);
      },
    };
  }

  /** Loads a cassette and wraps it; the mode decides whether a missing cassette may be recorded elsewhere. */
  static async open(path: string, options: ReplayTransportOptions = {}): Promise<ReplayTransport> {
    const mode = resolveRecordMode(options.mode);
    const exists = (await runtime.stat(path))?.isFile === true;
    const action = actionFor(mode, exists, path);
    if (action !== "replay") {
      throw new UsageError(
        exists
          ? `Record mode "${mode}" writes ${path}, which the in-process transport cannot do: use startCassette (stdio) instead`
          : `The cassette ${path} does not exist and the in-process transport only replays: record it with startCassette (stdio) or mcp-cassette record`,
      );
    }
    const ignorePaths = parseIgnorePaths(options.matchIgnore ?? [], "matchIgnore");
    const fingerprint = { ...options.fingerprint, ignorePaths };
    // Each cassette gets options of its own: a control's overlay is set on each engine's.
    const load = async (file: string) =>
      new ReplayEngine(await loadCassette(file), { ...options, fingerprint });
    return new ReplayTransport(await load(path), load);
  }

  /**
   * Starts serving: server output recorded before the first request (a
   * banner) is delivered now. After {@linkcode close} it starts a new
   * session (a client that connects again), on the cassette
   * `control.useCassette` chose, if it did.
   */
  async start(): Promise<void> {
    if (this.#session && !this.#closed) throw new Error("ReplayTransport already started");
    this.#closed = false;
    this.#report = undefined;
    this.#served = this.#control?.engine ?? this.engine;
    this.#session = this.#served.openSession();
    this.sessionId = this.#served.episodes.sessions[0]?.sessionId;
    await this.#session.open(this.#outlet);
  }

  /** Hands one client message to the replay; the answer arrives through `onmessage`. */
  send(message: SdkMessage, _options?: unknown): Promise<void> {
    if (this.#closed) return Promise.reject(new Error("ReplayTransport is closed"));
    if (!this.#session) return Promise.reject(new Error("ReplayTransport not started"));
    // Not awaited: a request whose recording asks the client something must
    // not hold up the client's answer, which arrives through a later send.
    const work = this.#session.receive(message as TransportMessage, this.#outlet).catch((error) => {
      this.onerror?.(error instanceof Error ? error : new Error(String(error)));
    });
    this.#inFlight.add(work);
    work.finally(() => this.#inFlight.delete(work));
    return Promise.resolve();
  }

  /** Remembers the negotiated protocol version (the SDK calls this after initialize). */
  setProtocolVersion(version: string): void {
    this.#protocolVersion = version;
  }

  /** The protocol version the client negotiated, once known. */
  get protocolVersion(): string | undefined {
    return this.#protocolVersion;
  }

  /** Stops serving and completes the report; calls `onclose`. Safe to call twice. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#session?.close();
    await Promise.allSettled([...this.#inFlight]);
    await this.#delivery;
    // Every cassette served (after a switch, more than one) completes its report.
    for (const engine of this.#control?.engines ?? [this.engine]) await engine.finished();
    this.#report = this.engine.report;
    this.onclose?.();
  }

  /**
   * Steers the replay from the test, as `replay --listen --control` does over
   * HTTP: `journal()`, `reset()`, `setFaults(overlay)`, `clearFaults()` and
   * `useCassette(path)` (the next session, after the client connects again,
   * is served from that cassette).
   */
  get control(): ReplayControl {
    return this.#control ??= new ReplayControl(this.engine, this.#open);
  }

  /**
   * What the replay saw (complete after {@linkcode close}): the first
   * cassette's report, whose journal covers every cassette served.
   */
  get report(): ReplayReport {
    return this.#report ?? this.engine.report;
  }

  /**
   * Closes and checks: throws {@linkcode ReplayMissError} when a request had
   * no recording (or, with `match: "exact"`, the default, an inexact
   * answer), or (with `failOnUnplayed`) when recorded requests were never
   * asked for.
   */
  async finish(options: { failOnUnplayed?: boolean } = {}): Promise<ReplayReport> {
    await this.close();
    // A miss on a cassette switched to fails the test as one on the first does.
    for (const engine of this.#control?.engines ?? [this.engine]) {
      checkReport(engine.report, {
        match: engine.options.match,
        failOnUnplayed: options.failOnUnplayed,
      });
    }
    return this.report;
  }

  /** Delivers in order, each on its own turn, so `onmessage` never re-enters `send`. */
  #deliver(message: JsonRpcMessage): Promise<void> {
    this.#delivery = this.#delivery.then(() => {
      if (!this.#closed || this.#inFlight.size > 0) this.onmessage?.(message as SdkMessage);
    });
    return this.#delivery;
  }
}
