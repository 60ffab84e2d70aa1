/**
 * Consistency rules: does the header agree with the frames, and does the
 * traffic hang together (every response asked for, every request answered,
 * ids unique, the last line whole)?
 *
 * @module
 */
import type { CassetteHeader } from "../cassette/format.ts";
import type { LocatedEntry } from "../cassette/reader.ts";
import type { JsonObject } from "../jsonrpc/messages.ts";
import type { LocatedMessage } from "../surface/mod.ts";
import { paramsOf } from "../surface/mod.ts";
import type { OrderedExchange, PairStep, StreamedSurface } from "../surface/stream.ts";
import type { Finding } from "./types.ts";

function describe(message: LocatedMessage): string {
  const id = JSON.stringify(message.id);
  return message.method ? `${message.method} (id ${id})` : `id ${id}`;
}

/** A placeholder without a keyed digest: every value its rule found became this one text. */
const PLAIN_PLACEHOLDER = /\[REDACTED:([A-Za-z0-9_.-]+)\]/;

const cancelKey = (session: string, id: unknown) => `${session}\u0000${JSON.stringify(id)}`;

/**
 * The consistency rules, fed message by message: what they keep across lines
 * is the header, the first line of each transport-telling entry, the requests
 * still unanswered and the ids of cancelled requests.
 */
export class ConsistencyRules {
  private readonly findings: Finding[] = [];
  private header?: CassetteHeader;
  private firstHttp?: LocatedEntry["line"];
  private firstHttpType?: string;
  private firstExit?: number;
  private readonly unanswered = new Set<OrderedExchange>();
  private readonly cancelled = new Set<string>();
  /** Labels of plain placeholders already reported in client requests (MCL009, once each). */
  private readonly conflating = new Set<string>();

  constructor(private readonly file: string) {}

  private emit(rule: string, line: number, pointer: string, message: string, excerpt?: string) {
    this.findings.push({
      rule,
      severity: SEVERITY[rule],
      message,
      file: this.file,
      line,
      pointer,
      ...(excerpt ? { excerpt } : {}),
    });
  }

  /** The cassette header. */
  start(header: CassetteHeader): void {
    this.header = header;
  }

  /** Each entry, before its messages. */
  entry(entry: LocatedEntry): void {
    if (
      this.firstHttp === undefined && (entry.type.startsWith("http-") || entry.type === "sse-event")
    ) {
      this.firstHttp = entry.line;
      this.firstHttpType = entry.type;
    }
    if (this.firstExit === undefined && entry.type === "session" && entry.exitCode !== undefined) {
      this.firstExit = entry.line;
    }
  }

  /** Each message with what it did to the pairing. */
  message(message: LocatedMessage, step: PairStep): void {
    if (message.method === "notifications/cancelled") {
      const requestId = (paramsOf(message) as JsonObject | undefined)?.requestId;
      if (requestId !== undefined) this.cancelled.add(cancelKey(message.session, requestId));
    }
    if (step.kind === "orphan") {
      this.emit(
        "MCL005",
        message.line,
        message.pointer,
        `${message.dir} response to ${
          describe(message)
        } answers no request of session "${message.session}"`,
      );
    } else if (step.kind === "request") {
      this.unanswered.add(step.exchange);
      if (message.dir === "c2s") this.checkPlaceholders(message);
      if (step.reusedLine !== undefined) {
        this.emit(
          "MCL006",
          message.line,
          message.pointer,
          `${message.dir} request ${
            describe(message)
          } reuses the id of line ${step.reusedLine} in session "${message.session}"`,
        );
      }
    } else if (step.kind === "answer") this.unanswered.delete(step.exchange);
  }

  /**
   * MCL009: a request holding a plain `[REDACTED:<label>]`: a replay cannot
   * tell the values it stood for apart, so any live value that rule finds
   * matches this recording.
   */
  private checkPlaceholders(message: LocatedMessage): void {
    const label = PLAIN_PLACEHOLDER.exec(JSON.stringify(message.msg))?.[1];
    if (label === undefined || this.conflating.has(label)) return;
    this.conflating.add(label);
    this.emit(
      "MCL009",
      message.line,
      message.pointer,
      `${
        describe(message)
      } holds [REDACTED:${label}] without a keyed digest: replay matches any live value the ${label} rule finds to it (record again for keyed placeholders)`,
    );
  }

  /** A torn last line. */
  torn(torn: { line: number; text: string }): void {
    this.emit(
      "MCL008",
      torn.line,
      "",
      `the last line is cut short (a recording that did not finish)`,
      torn.text.slice(0, 60),
    );
  }

  /** The findings, once every line is in. */
  finish(surface: StreamedSurface): Finding[] {
    this.checkHeader(surface);
    for (const { request } of this.unanswered) {
      if (this.cancelled.has(cancelKey(request.session, request.id))) continue;
      this.emit(
        "MCL007",
        request.line,
        request.pointer,
        `${request.dir} request ${describe(request)} was never answered`,
      );
    }
    return this.findings;
  }

  private checkHeader(surface: StreamedSurface): void {
    const header = this.header!;
    if (surface.handshake) {
      const seenEra = surface.handshake === "initialize" ? "legacy" : "modern";
      // A stdio header is written before the first exchange: without an era it
      // leaves the era to the frames (as replay reads it), so only HTTP's absent era means legacy.
      const claimed = header.era ?? (header.transport === "stdio" ? seenEra : "legacy");
      if (seenEra !== claimed) {
        this.emit(
          "MCL001",
          1,
          "/era",
          `header says era "${claimed}" but the session opened with ${surface.handshake} (${seenEra})`,
        );
      }
    }
    if (header.transport === "stdio" && this.firstHttp !== undefined) {
      this.emit(
        "MCL002",
        1,
        "/transport",
        `header says transport "stdio" but line ${this.firstHttp} is an ${this.firstHttpType} entry`,
      );
    }
    if (header.transport !== "stdio" && this.firstExit !== undefined) {
      this.emit(
        "MCL002",
        1,
        "/transport",
        `header says transport "${header.transport}" but line ${this.firstExit} records a process exit code`,
      );
    }
    this.checkServer(surface);
  }

  private checkServer(surface: StreamedSurface): void {
    const header = this.header!;
    const server = surface.server;
    if (!server) return;
    if (
      header.protocolVersion !== undefined && server.protocolVersion !== undefined &&
      header.protocolVersion !== server.protocolVersion
    ) {
      this.emit(
        "MCL003",
        1,
        "/protocolVersion",
        `header says protocol ${header.protocolVersion} but the server negotiated ${server.protocolVersion} (line ${server.line})`,
      );
    }
    for (const field of ["name", "version"] as const) {
      const claimed = header.server?.[field];
      const said = server[field];
      if (claimed !== undefined && said !== undefined && claimed !== said) {
        this.emit(
          "MCL004",
          1,
          `/server/${field}`,
          `header says server ${field} "${claimed}" but serverInfo (line ${server.line}) says "${said}"`,
        );
      }
    }
  }
}

/** Severities of the consistency rules. */
const SEVERITY: Record<string, "error" | "warning"> = {
  MCL001: "error",
  MCL002: "error",
  MCL003: "error",
  MCL004: "error",
  MCL005: "warning",
  MCL006: "error",
  MCL007: "warning",
  MCL008: "warning",
  MCL009: "warning",
};
