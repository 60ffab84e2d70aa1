/**
 * mcp-vcr's NDJSON transcripts (`mcp-vcr record --format ndjson`, transcript
 * `version` 0 and 1): a `{"_type": "meta", ...}` line, then one
 * `{"t": <ms since start>, "dir": "c2s" | "s2c", "payload": <message>}` a
 * line. Its default YAML transcripts are not read (no YAML parser here).
 *
 * @module
 */
import { CassetteFormatError } from "../../errors/errors.ts";
import type { JsonObject } from "../../jsonrpc/messages.ts";
import { asString, isoTime, located, objectOrUndefined } from "./common.ts";
import type { Converted, LocatedEntry } from "./common.ts";
import type { JsonLine } from "./lines.ts";

/** True when a first line is mcp-vcr's meta line. */
export function isMcpVcrMeta(first: JsonObject): boolean {
  return first._type === "meta" && typeof first.version === "number";
}

/** Converts an mcp-vcr NDJSON transcript line by line, after its meta line. */
export class McpVcrConverter {
  readonly source: string;
  readonly header: Converted["header"];

  constructor(private readonly path: string, meta: JsonObject) {
    const version = meta.version as number;
    if (version < 0 || version > 1) {
      throw new CassetteFormatError(
        path,
        1,
        `mcp-vcr transcript version ${version} is not supported (this build imports 0 and 1)`,
      );
    }
    const details: JsonObject = { sourceFormatVersion: version };
    if (typeof meta.session_id === "string") details.sessionId = meta.session_id;
    if (typeof meta.client_hint === "string") details.clientHint = meta.client_hint;
    if (meta.incomplete === true) details.incomplete = asString(meta.incomplete_reason) ?? true;
    const server: Converted["header"]["server"] = {};
    if (Array.isArray(meta.server_command)) server.command = meta.server_command.map(String);
    this.source = `mcp-vcr@${version}`;
    this.header = {
      transport: "stdio",
      created: isoTime(meta.recorded_at),
      protocolVersion: asString(meta.protocol_version),
      server,
      meta: details,
    };
  }

  /** The entry of one line after the meta line, if it holds a message. */
  add(line: number, value: JsonObject): LocatedEntry | undefined {
    if (value._type !== undefined) return undefined; // another meta-like record: nothing to replay
    if (value.dir !== "c2s" && value.dir !== "s2c") {
      throw new CassetteFormatError(
        this.path,
        line,
        `"dir" must be "c2s" or "s2c", not ${JSON.stringify(value.dir)}`,
      );
    }
    const payload = objectOrUndefined(value.payload);
    if (!payload) throw new CassetteFormatError(this.path, line, `message has no "payload" object`);
    const t = typeof value.t === "number" ? value.t : 0;
    return located({ type: "message", t, dir: value.dir, msg: payload }, line);
  }
}

/** Converts the lines (already parsed) of an mcp-vcr NDJSON transcript. */
export function convertMcpVcr(path: string, lines: JsonLine[]): Converted {
  const converter = new McpVcrConverter(path, lines[0].value);
  const entries: LocatedEntry[] = [];
  for (const { line, value } of lines.slice(1)) {
    const entry = converter.add(line, value);
    if (entry) entries.push(entry);
  }
  return { source: converter.source, header: converter.header, entries };
}
