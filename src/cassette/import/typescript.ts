/**
 * The TypeScript mcp-cassette's JSONL (`cassetteVersion` 1 and 2): a header
 * line, then `frame` lines (one message), `raw` lines (non-JSON output) and
 * `chunks` lines (a streamed HTTP response, written when the stream ended,
 * so later in the file than some of what it contains).
 *
 * @module
 */
import { CassetteFormatError } from "../../errors/errors.ts";
import type { Json, JsonObject } from "../../jsonrpc/messages.ts";
import type { Direction, Entry, Era, SseFields, Transport } from "../format.ts";
import { asString, located, objectOrUndefined } from "./common.ts";
import type { Converted, LocatedEntry } from "./common.ts";

/** True when a first line is the TypeScript tool's header. */
export function isTypeScriptHeader(first: unknown): first is JsonObject {
  const header = objectOrUndefined(first);
  return !!header && header.type === "header" && typeof header.cassetteVersion === "number";
}

function direction(path: string, line: number, value: Json | undefined): Direction {
  if (value === "c2s" || value === "s2c") return value;
  throw new CassetteFormatError(
    path,
    line,
    `"dir" must be "c2s" or "s2c", not ${JSON.stringify(value)}`,
  );
}

function rawText(item: JsonObject): string | undefined {
  return asString(item.raw) ?? asString(item.text) ?? asString(item.line) ?? asString(item.data);
}

interface Pending {
  entry: Entry;
  line: number;
  /** File order, to keep ties in arrival order when sorting by time. */
  order: number;
}

/** Converts the lines (already parsed) of a TypeScript mcp-cassette file. */
export function convertTypeScript(
  path: string,
  lines: { line: number; value: JsonObject }[],
): Converted {
  const header = lines[0].value;
  const version = header.cassetteVersion as number;
  if (version < 1 || version > 2) {
    throw new CassetteFormatError(
      path,
      1,
      `TypeScript mcp-cassette cassetteVersion ${version} is not supported (this build imports 1 and 2)`,
    );
  }
  const transport = (asString(header.transport) ?? "stdio") as Transport;
  if (transport !== "stdio" && transport !== "http" && transport !== "sse") {
    throw new CassetteFormatError(path, 1, `unknown transport ${JSON.stringify(header.transport)}`);
  }
  const lineConverter = new LineConverter(path, transport !== "stdio");
  for (const { line, value } of lines.slice(1)) lineConverter.add(line, value);
  return {
    source: `ts-mcp-cassette@${version}`,
    header: convertedHeader(header, transport, version),
    entries: lineConverter.entries(),
  };
}

/** Our header fields from the TypeScript tool's header. */
function convertedHeader(
  header: JsonObject,
  transport: Transport,
  version: number,
): Converted["header"] {
  const server: Converted["header"]["server"] = {};
  if (Array.isArray(header.command)) server.command = header.command.map(String);
  if (typeof header.url === "string") server.url = header.url;
  const meta: JsonObject = { sourceFormatVersion: version };
  if (typeof header.recorder === "string") meta.sourceRecorder = header.recorder;
  if (typeof header.sessioned === "boolean") meta.sessioned = header.sessioned;
  const redaction = objectOrUndefined(header.redaction);
  return {
    transport,
    created: asString(header.startedAt),
    era: header.era === "modern" || header.era === "legacy" ? header.era as Era : undefined,
    server,
    redaction: redaction?.applied === true ? { rules: ["ts-mcp-cassette:default"] } : undefined,
    meta,
  };
}

/** The TypeScript tool's lines (frames, raw lines, SSE chunk groups) as our entries. */
class LineConverter {
  #pending: Pending[] = [];
  #nextExchange = 0;
  /** Exchange numbers of client requests over HTTP, by id, for the stream that answers them. */
  #exchangeOfRequest = new Map<string, number>();

  constructor(private readonly path: string, private readonly overHttp: boolean) {}

  add(line: number, value: JsonObject): void {
    const t = typeof value.t === "number" ? value.t : 0;
    if (value.type === "frame") this.#frame(line, value, t);
    else if (value.type === "raw") this.#raw(line, value, t);
    else if (value.type === "chunks") this.#chunks(line, value, t);
    else {
      throw new CassetteFormatError(
        this.path,
        line,
        `unknown TypeScript mcp-cassette line type ${JSON.stringify(value.type)}`,
      );
    }
  }

  /** Streams are written when they end: every message goes back where it arrived. */
  entries(): LocatedEntry[] {
    const pending = this.#pending.sort((a, b) => a.entry.t - b.entry.t || a.order - b.order);
    return pending.map(({ entry, line }) => located(entry, line));
  }

  #push(entry: Entry, line: number) {
    this.#pending.push({ entry, line, order: this.#pending.length });
  }

  #frame(line: number, value: JsonObject, t: number) {
    const dir = direction(this.path, line, value.dir);
    const entry: Entry = { type: "message", t, dir, msg: value.frame ?? null };
    if (this.overHttp && dir === "c2s") {
      entry.x = this.#nextExchange++;
      const id = objectOrUndefined(value.frame)?.id;
      if (id !== undefined && objectOrUndefined(value.frame)?.method !== undefined) {
        this.#exchangeOfRequest.set(JSON.stringify(id), entry.x);
      }
    }
    this.#push(entry, line);
  }

  #raw(line: number, value: JsonObject, t: number) {
    const text = rawText(value);
    if (text === undefined) throw new CassetteFormatError(this.path, line, `raw line has no text`);
    this.#push({ type: "raw", t, dir: direction(this.path, line, value.dir), text }, line);
  }

  #chunks(line: number, value: JsonObject, t: number) {
    const dir = direction(this.path, line, value.dir);
    if (!Array.isArray(value.chunks)) {
      throw new CassetteFormatError(this.path, line, `chunks line has no "chunks" array`);
    }
    const stream: SseFields["stream"] = value.via === "get" ? "get" : "post";
    let x: number | undefined;
    if (this.overHttp) {
      x = value.id !== undefined && stream === "post"
        ? this.#exchangeOfRequest.get(JSON.stringify(value.id))
        : undefined;
      x ??= this.#nextExchange++;
    }
    for (const chunk of value.chunks) {
      const item = objectOrUndefined(chunk);
      if (!item) continue;
      const chunkT = typeof item.t === "number" ? item.t : t;
      const sse: SseFields = { stream };
      if (typeof item.event === "string") sse.event = item.event;
      if (typeof item.eventId === "string") sse.id = item.eventId;
      const entry: Entry = "frame" in item
        ? { type: "message", t: chunkT, dir, msg: item.frame, sse }
        : { type: "raw", t: chunkT, dir, text: rawText(item) ?? JSON.stringify(item), sse };
      if (x !== undefined) entry.x = x;
      this.#push(entry, line);
    }
  }
}
