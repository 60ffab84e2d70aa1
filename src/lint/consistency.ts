/**
 * Consistency rules: does the header agree with the frames, and does the
 * traffic hang together (every response asked for, every request answered,
 * ids unique, the last line whole)?
 *
 * @module
 */
import type { Cassette } from "../cassette/reader.ts";
import type { JsonObject } from "../jsonrpc.ts";
import type { Exchange, LocatedMessage, Pairing, Surface } from "../surface/mod.ts";
import { paramsOf, resultOf } from "../surface/mod.ts";
import type { Finding } from "./types.ts";

type Emit = (
  rule: string,
  line: number,
  pointer: string,
  message: string,
  excerpt?: string,
) => void;

function describe(message: LocatedMessage): string {
  const id = JSON.stringify(message.id);
  return message.method ? `${message.method} (id ${id})` : `id ${id}`;
}

function firstHandshake(exchanges: readonly Exchange[]): Exchange | undefined {
  return exchanges.find((exchange) =>
    exchange.request.dir === "c2s" &&
    (exchange.request.method === "initialize" || exchange.request.method === "server/discover") &&
    resultOf(exchange.response) !== undefined
  );
}

function checkHeader(cassette: Cassette, pairing: Pairing, surface: Surface, emit: Emit) {
  const header = cassette.header;
  const handshake = firstHandshake(pairing.exchanges);
  if (handshake) {
    const seenEra = handshake.request.method === "initialize" ? "legacy" : "modern";
    // A stdio header is written before the first exchange: without an era it
    // leaves the era to the frames (as replay reads it), so only HTTP's absent era means legacy.
    const claimed = header.era ?? (header.transport === "stdio" ? seenEra : "legacy");
    if (seenEra !== claimed) {
      emit(
        "MCL001",
        1,
        "/era",
        `header says era "${claimed}" but the session opened with ${handshake.request.method} (${seenEra})`,
      );
    }
  }
  const httpEntry = cassette.entries.find((entry) =>
    entry.type.startsWith("http-") || entry.type === "sse-event"
  );
  if (header.transport === "stdio" && httpEntry) {
    emit(
      "MCL002",
      1,
      "/transport",
      `header says transport "stdio" but line ${httpEntry.line} is an ${httpEntry.type} entry`,
    );
  }
  const stdioOnly = cassette.entries.find((entry) =>
    entry.type === "session" && entry.exitCode !== undefined
  );
  if (header.transport !== "stdio" && stdioOnly) {
    emit(
      "MCL002",
      1,
      "/transport",
      `header says transport "${header.transport}" but line ${stdioOnly.line} records a process exit code`,
    );
  }
  const server = surface.server;
  if (!server) return;
  if (
    header.protocolVersion !== undefined && server.protocolVersion !== undefined &&
    header.protocolVersion !== server.protocolVersion
  ) {
    emit(
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
      emit(
        "MCL004",
        1,
        `/server/${field}`,
        `header says server ${field} "${claimed}" but serverInfo (line ${server.line}) says "${said}"`,
      );
    }
  }
}

function cancelledIds(messages: readonly LocatedMessage[]): Set<string> {
  const ids = new Set<string>();
  for (const message of messages) {
    if (message.method !== "notifications/cancelled") continue;
    const requestId = (paramsOf(message) as JsonObject | undefined)?.requestId;
    if (requestId !== undefined) ids.add(`${message.session}\u0000${JSON.stringify(requestId)}`);
  }
  return ids;
}

/** Runs the consistency rules. */
export function consistencyFindings(
  cassette: Cassette,
  messages: readonly LocatedMessage[],
  pairing: Pairing,
  surface: Surface,
): Finding[] {
  const findings: Finding[] = [];
  const emit: Emit = (rule, line, pointer, message, excerpt) =>
    findings.push({
      rule,
      severity: SEVERITY[rule],
      message,
      file: cassette.path,
      line,
      pointer,
      ...(excerpt ? { excerpt } : {}),
    });
  checkHeader(cassette, pairing, surface, emit);
  for (const orphan of pairing.orphans) {
    emit(
      "MCL005",
      orphan.line,
      orphan.pointer,
      `${orphan.dir} response to ${
        describe(orphan)
      } answers no request of session "${orphan.session}"`,
    );
  }
  for (const { first, again } of pairing.duplicates) {
    emit(
      "MCL006",
      again.line,
      again.pointer,
      `${again.dir} request ${
        describe(again)
      } reuses the id of line ${first.line} in session "${again.session}"`,
    );
  }
  const cancelled = cancelledIds(messages);
  for (const exchange of pairing.exchanges) {
    const request = exchange.request;
    if (
      exchange.response || cancelled.has(`${request.session}\u0000${JSON.stringify(request.id)}`)
    ) continue;
    emit(
      "MCL007",
      request.line,
      request.pointer,
      `${request.dir} request ${describe(request)} was never answered`,
    );
  }
  if (cassette.torn) {
    emit(
      "MCL008",
      cassette.torn.line,
      "",
      `the last line is cut short (a recording that did not finish)`,
      cassette.torn.text.slice(0, 60),
    );
  }
  return findings;
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
};
