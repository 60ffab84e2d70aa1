/**
 * Helpers shared by the foreign-format converters: building our header from
 * what the source knew, and filling what it did not from the frames.
 *
 * @module
 */
import type { CassetteHeader, Entry, Era, Transport } from "../format.ts";
import { FORMAT_NAME, FORMAT_VERSION, RECORDER_VERSION } from "../format.ts";
import type { Json, JsonObject } from "../../jsonrpc/messages.ts";

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

/** What the handshake told of the server and the era. */
export interface Handshake {
  era?: Era;
  protocolVersion?: string;
  name?: string;
  version?: string;
}

/**
 * Watches entries go by for the first answer to an `initialize` (or
 * `server/discover`): what the header takes from the handshake when the
 * source's own header does not say.
 */
export class HandshakeWatch {
  private readonly handshakeIds = new Map<string, Era>();
  /** Set once the answer has been seen. */
  found?: Handshake;

  /** Takes the next entry; true once the handshake's answer has been seen. */
  see(entry: Entry): boolean {
    if (this.found) return true;
    if (entry.type !== "message") return false;
    const msg = objectOrUndefined(entry.msg);
    if (!msg) return false;
    if (entry.dir === "c2s" && (msg.method === "initialize" || msg.method === "server/discover")) {
      this.handshakeIds.set(
        JSON.stringify(msg.id),
        msg.method === "initialize" ? "legacy" : "modern",
      );
      return false;
    }
    const era = this.handshakeIds.get(JSON.stringify(msg.id));
    const result = objectOrUndefined(msg.result);
    if (entry.dir !== "s2c" || era === undefined || !result) return false;
    const info = objectOrUndefined(result.serverInfo);
    const versions = result.supportedVersions as Json;
    this.found = {
      era,
      protocolVersion: asString(result.protocolVersion) ??
        (Array.isArray(versions) ? asString(versions[versions.length - 1]) : undefined),
      name: asString(info?.name),
      version: asString(info?.version),
    };
    return true;
  }
}

function fromHandshake(entries: readonly Entry[]): Handshake {
  const watch = new HandshakeWatch();
  for (const entry of entries) if (watch.see(entry)) break;
  return watch.found ?? {};
}

/** A deterministic creation time for sources that do not record one. */
export const UNKNOWN_TIME = "1970-01-01T00:00:00.000Z";

/** Completes a converted header: the source's values first, the handshake's next. */
export function finishHeader(converted: Converted): CassetteHeader {
  return headerOf(converted.source, converted.header, fromHandshake(converted.entries));
}

/** The header from the source's own fields and, under them, the handshake's. */
export function headerOf(
  source: string,
  given: Converted["header"],
  seen: Handshake,
): CassetteHeader {
  const server = { ...given.server };
  if (server.name === undefined && seen.name !== undefined) server.name = seen.name;
  if (server.version === undefined && seen.version !== undefined) server.version = seen.version;
  const header: CassetteHeader = {
    format: FORMAT_NAME,
    version: FORMAT_VERSION,
    recorder: `mcp-cassette/${RECORDER_VERSION} (import from ${source})`,
    created: given.created ?? UNKNOWN_TIME,
    transport: given.transport,
    era: given.era ?? seen.era ?? "legacy",
    server,
  };
  const protocolVersion = given.protocolVersion ?? seen.protocolVersion;
  if (protocolVersion !== undefined) header.protocolVersion = protocolVersion;
  if (given.redaction) header.redaction = given.redaction;
  header.meta = { importedFrom: source, ...given.meta };
  return header;
}
