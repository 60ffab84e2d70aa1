/**
 * mcp-rec's JSONL (0.1.x): no header; one line per message that crossed its
 * stdio proxy, `{"ts": <epoch seconds>, "dir": "client->server" |
 * "server->client", "msg": <the message>}`, where a line that was not JSON
 * is kept as `{"_raw": TEXT, "_unparsed": true}`. The file is opened for
 * appending, so one file may hold several launches one after another: each
 * becomes a session of its own.
 *
 * @module
 */
import { CassetteFormatError } from "../../errors/errors.ts";
import type { JsonObject } from "../../jsonrpc/messages.ts";
import type { Direction, Entry } from "../format.ts";
import { asString, located, objectOrUndefined } from "./common.ts";
import type { Converted, LocatedEntry } from "./common.ts";
import type { JsonLine } from "./lines.ts";

const DIRECTIONS: Record<string, Direction> = {
  "client->server": "c2s",
  "server->client": "s2c",
};

/** True when a first line is one of mcp-rec's. */
export function isMcpRecLine(first: JsonObject): boolean {
  return typeof first.ts === "number" && typeof first.dir === "string" &&
    first.dir in DIRECTIONS && objectOrUndefined(first.msg) !== undefined;
}

/** Converts an mcp-rec file line by line: each line is one entry. */
export class McpRecConverter {
  readonly source = "mcp-rec@0.1";
  readonly header: Converted["header"];
  private readonly start: number;
  private launches = 0;

  constructor(private readonly path: string, first: JsonObject) {
    this.start = first.ts as number;
    this.header = {
      transport: "stdio",
      created: new Date(this.start * 1000).toISOString(),
      server: {},
    };
  }

  /** The entry of one line. */
  add(line: number, value: JsonObject): LocatedEntry {
    const path = this.path;
    const dir = typeof value.dir === "string" ? DIRECTIONS[value.dir] : undefined;
    if (!dir) {
      throw new CassetteFormatError(
        path,
        line,
        `"dir" must be "client->server" or "server->client", not ${JSON.stringify(value.dir)}`,
      );
    }
    const msg = objectOrUndefined(value.msg);
    if (typeof value.ts !== "number" || !msg) {
      throw new CassetteFormatError(path, line, `an mcp-rec line needs a numeric "ts" and a "msg"`);
    }
    // Epoch seconds as a float: milliseconds from the first line, float noise rounded away.
    const t = Math.max(0, Math.round((value.ts - this.start) * 1000));
    const raw = msg._unparsed === true ? asString(msg._raw) : undefined;
    const entry: Entry = raw !== undefined
      ? { type: "raw", t, dir, text: raw }
      : { type: "message", t, dir, msg };
    // Each launch of the server appends a session that opens with initialize;
    // the second and later get the names our recorder gives appended launches.
    if (dir === "c2s" && msg.method === "initialize") this.launches++;
    if (this.launches > 1) entry.session = `launch-${this.launches}`;
    return located(entry, line);
  }
}

/** Converts the lines (already parsed) of an mcp-rec file. */
export function convertMcpRec(path: string, lines: JsonLine[]): Converted {
  const converter = new McpRecConverter(path, lines[0].value);
  const entries = lines.map(({ line, value }) => converter.add(line, value));
  return { source: converter.source, header: converter.header, entries };
}
