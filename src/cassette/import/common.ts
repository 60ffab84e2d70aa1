/**
 * Helpers shared by the foreign-format converters: building our header from
 * what the source knew, and filling what it did not from the frames.
 *
 * @module
 */
import type { CassetteHeader, Entry, Era, Transport } from "../format.ts";
import { FORMAT_NAME, FORMAT_VERSION, RECORDER_VERSION } from "../format.ts";
import type { Json, JsonObject } from "../../jsonrpc.ts";

/**
 * An entry with the source line it came from: the reader's `LocatedEntry`,
 * spelled out here so that the converters, which the reader loads, never
 * import the reader back (not even for a type).
 */
export type LocatedEntry = Entry & { line: number };

/** A converted file, shaped as the reader's `Cassette`. */
export interface ImportedCassette {
  path: string;
  header: CassetteHeader;
  entries: LocatedEntry[];
  torn?: { line: number; text: string };
  importedFrom: string;
}

/** What a converter produces before the header is finished. */
export interface Converted {
  /** `<tool>@<version>`, e.g. `python-mcp-cassette@2`. */
  source: string;
  header: Partial<CassetteHeader> & { transport: Transport };
  entries: LocatedEntry[];
}

/** Narrows a JSON value to an object. */
export function objectOrUndefined(value: unknown): JsonObject | undefined {
  return value !== null && typeof value === "object" && !Array.isArray(value)
    ? value as JsonObject
    : undefined;
}

/** A string field, or undefined. */
export function asString(value: unknown): string | undefined {
  return typeof value === "string" ? value : undefined;
}

/** A time such as `2026-02-17T20:25:23.123456+00:00` as our headers write times; other text as it is. */
export function isoTime(value: unknown): string | undefined {
  const text = asString(value);
  const time = text === undefined ? NaN : Date.parse(text);
  return Number.isNaN(time) ? text : new Date(time).toISOString();
}

/** Stamps a source line number on an entry. */
export function located(entry: Entry, line: number): LocatedEntry {
  return Object.assign(entry, { line });
}

/** Reads era, protocol version and server identity from the recorded handshake. */
function fromHandshake(entries: readonly Entry[]): {
  era?: Era;
  protocolVersion?: string;
  name?: string;
  version?: string;
} {
  const handshakeIds = new Map<string, Era>();
  for (const entry of entries) {
    if (entry.type !== "message") continue;
    const msg = objectOrUndefined(entry.msg);
    if (!msg) continue;
    if (entry.dir === "c2s" && (msg.method === "initialize" || msg.method === "server/discover")) {
      handshakeIds.set(JSON.stringify(msg.id), msg.method === "initialize" ? "legacy" : "modern");
      continue;
    }
    const era = handshakeIds.get(JSON.stringify(msg.id));
    const result = objectOrUndefined(msg.result);
    if (entry.dir !== "s2c" || era === undefined || !result) continue;
    const info = objectOrUndefined(result.serverInfo);
    const versions = result.supportedVersions as Json;
    return {
      era,
      protocolVersion: asString(result.protocolVersion) ??
        (Array.isArray(versions) ? asString(versions[versions.length - 1]) : undefined),
      name: asString(info?.name),
      version: asString(info?.version),
    };
  }
  return {};
}

/** A deterministic creation time for sources that do not record one. */
export const UNKNOWN_TIME = "1970-01-01T00:00:00.000Z";

/** Completes a converted header: the source's values first, the handshake's next. */
export function finishHeader(converted: Converted): CassetteHeader {
  const seen = fromHandshake(converted.entries);
  const given = converted.header;
  const server = { ...given.server };
  if (server.name === undefined && seen.name !== undefined) server.name = seen.name;
  if (server.version === undefined && seen.version !== undefined) server.version = seen.version;
  const header: CassetteHeader = {
    format: FORMAT_NAME,
    version: FORMAT_VERSION,
    recorder: `mcp-cassette/${RECORDER_VERSION} (import from ${converted.source})`,
    created: given.created ?? UNKNOWN_TIME,
    transport: given.transport,
    era: given.era ?? seen.era ?? "legacy",
    server,
  };
  const protocolVersion = given.protocolVersion ?? seen.protocolVersion;
  if (protocolVersion !== undefined) header.protocolVersion = protocolVersion;
  if (given.redaction) header.redaction = given.redaction;
  header.meta = { importedFrom: converted.source, ...given.meta };
  return header;
}
