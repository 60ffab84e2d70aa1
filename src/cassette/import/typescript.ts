/**
 * The TypeScript mcp-cassette's JSONL (`cassetteVersion` 1 and 2): a header
 * line, then `frame` lines (one message), `raw` lines (non-JSON output) and
 * `chunks` lines (a streamed HTTP response, written when the stream ended,
 * so later in the file than some of what it contains).
 *
 * @module
 */
import { CassetteFormatError } from "../../errors.ts";
import type { Json, JsonObject } from "../../jsonrpc.ts";
import type { Direction, Entry, Era, SseFields, Transport } from "../format.ts";
import { asObject, asString, located } from "./common.ts";
import type { Converted, LocatedEntry } from "./common.ts";

/** True when a first line is the TypeScript tool's header. */
export function isTypeScriptHeader(first: unknown): first is JsonObject {
  const header = asObject(first);
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
  const overHttp = transport !== "stdio";
  const pending: Pending[] = [];
  let nextExchange = 0;
  /** Exchange numbers of client requests over HTTP, by id, for the stream that answers them. */
  const exchangeOfRequest = new Map<string, number>();
  const push = (entry: Entry, line: number) => pending.push({ entry, line, order: pending.length });

  for (const { line, value } of lines.slice(1)) {
    const t = typeof value.t === "number" ? value.t : 0;
    switch (value.type) {
      case "frame": {
        const dir = direction(path, line, value.dir);
        const entry: Entry = { type: "message", t, dir, msg: value.frame ?? null };
        if (overHttp && dir === "c2s") {
          entry.x = nextExchange++;
          const id = asObject(value.frame)?.id;
          if (id !== undefined && asObject(value.frame)?.method !== undefined) {
            exchangeOfRequest.set(JSON.stringify(id), entry.x);
          }
        }
        push(entry, line);
        break;
      }
      case "raw": {
        const text = rawText(value);
        if (text === undefined) throw new CassetteFormatError(path, line, `raw line has no text`);
        push({ type: "raw", t, dir: direction(path, line, value.dir), text }, line);
        break;
      }
      case "chunks": {
        const dir = direction(path, line, value.dir);
        if (!Array.isArray(value.chunks)) {
          throw new CassetteFormatError(path, line, `chunks line has no "chunks" array`);
        }
        const stream: SseFields["stream"] = value.via === "get" ? "get" : "post";
        let x: number | undefined;
        if (overHttp) {
          x = value.id !== undefined && stream === "post"
            ? exchangeOfRequest.get(JSON.stringify(value.id))
            : undefined;
          x ??= nextExchange++;
        }
        for (const chunk of value.chunks) {
          const item = asObject(chunk);
          if (!item) continue;
          const chunkT = typeof item.t === "number" ? item.t : t;
          const sse: SseFields = { stream };
          if (typeof item.event === "string") sse.event = item.event;
          if (typeof item.eventId === "string") sse.id = item.eventId;
          const entry: Entry = "frame" in item
            ? { type: "message", t: chunkT, dir, msg: item.frame, sse }
            : { type: "raw", t: chunkT, dir, text: rawText(item) ?? JSON.stringify(item), sse };
          if (x !== undefined) entry.x = x;
          push(entry, line);
        }
        break;
      }
      default:
        throw new CassetteFormatError(
          path,
          line,
          `unknown TypeScript mcp-cassette line type ${JSON.stringify(value.type)}`,
        );
    }
  }
  // Streams are written when they end; put every message back where it arrived.
  pending.sort((a, b) => a.entry.t - b.entry.t || a.order - b.order);
  const entries: LocatedEntry[] = pending.map(({ entry, line }) => located(entry, line));

  const server: Converted["header"]["server"] = {};
  if (Array.isArray(header.command)) server.command = header.command.map(String);
  if (typeof header.url === "string") server.url = header.url;
  const meta: JsonObject = { sourceFormatVersion: version };
  if (typeof header.recorder === "string") meta.sourceRecorder = header.recorder;
  if (typeof header.sessioned === "boolean") meta.sessioned = header.sessioned;
  const redaction = asObject(header.redaction);
  return {
    source: `ts-mcp-cassette@${version}`,
    header: {
      transport,
      created: asString(header.startedAt),
      era: header.era === "modern" || header.era === "legacy" ? header.era as Era : undefined,
      server,
      redaction: redaction?.applied === true ? { rules: ["ts-mcp-cassette:default"] } : undefined,
      meta,
    },
    entries,
  };
}
