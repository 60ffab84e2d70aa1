/**
 * mcp-replay's JSONL (`mcp-replay/cassette@1`): a header line, then one
 * client message a line with the server's response beside it. Response
 * times and server-initiated traffic were never recorded.
 *
 * @module
 */
import { CassetteFormatError } from "../../errors/errors.ts";
import type { JsonObject } from "../../jsonrpc/messages.ts";
import type { Entry } from "../format.ts";
import { located, objectOrUndefined } from "./common.ts";
import type { Converted, LocatedEntry } from "./common.ts";

/** The schema name on the header line. */
export const MCP_REPLAY_SCHEMA = "mcp-replay/cassette@1";

/** True when a first line is mcp-replay's header. */
export function isMcpReplayHeader(first: unknown): first is JsonObject {
  const header = objectOrUndefined(first);
  return !!header && typeof header.schema === "string" &&
    header.schema.startsWith("mcp-replay/cassette@");
}

/** Converts the lines (already parsed) of an mcp-replay file. */
export function convertMcpReplay(
  path: string,
  lines: { line: number; value: JsonObject }[],
): Converted {
  const header = lines[0].value;
  if (header.schema !== MCP_REPLAY_SCHEMA) {
    throw new CassetteFormatError(
      path,
      1,
      `mcp-replay schema ${
        JSON.stringify(header.schema)
      } is not supported (this build imports ${MCP_REPLAY_SCHEMA})`,
    );
  }
  const entries: LocatedEntry[] = [];
  const interactions = lines.slice(1).sort((a, b) =>
    Number(a.value.seq ?? 0) - Number(b.value.seq ?? 0)
  );
  for (const { line, value } of interactions) {
    if (!("message" in value)) {
      throw new CassetteFormatError(path, line, `interaction has no "message"`);
    }
    // Seconds with millisecond precision; round away float noise.
    const t = typeof value.ts === "number" ? Math.round(value.ts * 1000) : 0;
    entries.push(located({ type: "message", t, dir: "c2s", msg: value.message }, line));
    if (value.response !== null && value.response !== undefined) {
      const response: Entry = { type: "message", t, dir: "s2c", msg: value.response };
      entries.push(located(response, line));
    }
  }
  const meta = objectOrUndefined(header.meta) ?? {};
  const server: Converted["header"]["server"] = {};
  if (Array.isArray(meta.server)) server.command = meta.server.map(String);
  else if (typeof meta.server === "string") server.command = [meta.server];
  return {
    source: "mcp-replay@1",
    header: { transport: "stdio", server, meta: { responseTimesUnknown: true } },
    entries,
  };
}
