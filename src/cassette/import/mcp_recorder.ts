/**
 * mcp-recorder's JSON cassettes (`"version": "1.x"`): one document with
 * `metadata` and `interactions`, each a client request with the response it
 * got and its latency, or a client notification. Server-initiated messages
 * were never recorded, and no interaction has a time of its own: times are
 * rebuilt by laying the latencies end to end.
 *
 * @module
 */
import { CassetteFormatError } from "../../errors/errors.ts";
import type { Json, JsonObject } from "../../jsonrpc/messages.ts";
import type { MessageEntry, Transport } from "../format.ts";
import { asString, isoTime, located, objectOrUndefined } from "./common.ts";
import type { Converted, LocatedEntry } from "./common.ts";

/** True when a parsed document looks like an mcp-recorder cassette. */
export function isMcpRecorderCassette(document: unknown): document is JsonObject {
  const object = objectOrUndefined(document);
  return !!object && typeof object.version === "string" && Array.isArray(object.interactions);
}

/** Line numbers of each interaction's `"type"` in the source text, in order. */
function interactionLines(text: string): number[] {
  const lines: number[] = [];
  let line = 1;
  let last = 0;
  const pattern = /"type"\s*:\s*"(jsonrpc_request|notification|lifecycle)"/g;
  for (const match of text.matchAll(pattern)) {
    for (let i = last; i < match.index!; i++) if (text.charCodeAt(i) === 10) line++;
    last = match.index!;
    lines.push(line);
  }
  return lines;
}

function transportOf(value: Json | undefined): Transport {
  return value === "http" ? "http" : "stdio";
}

/** Converts an mcp-recorder document. */
export function convertMcpRecorder(path: string, text: string, document: JsonObject): Converted {
  const version = document.version as string;
  if (version.split(".")[0] !== "1") {
    throw new CassetteFormatError(
      path,
      1,
      `mcp-recorder cassette version ${
        JSON.stringify(version)
      } is not supported (this build imports 1.x)`,
    );
  }
  const metadata = objectOrUndefined(document.metadata) ?? {};
  const transport = transportOf(metadata.transport_type);
  const lines = interactionLines(text);
  const entries: LocatedEntry[] = [];
  let t = 0;
  let exchange = 0;
  (document.interactions as Json[]).forEach((item, i) => {
    const interaction = objectOrUndefined(item);
    const line = lines[i] ?? 1;
    // Lifecycle items are HTTP session bookkeeping (DELETE, GET) with no message.
    if (!interaction || interaction.type === "lifecycle") return;
    const request = objectOrUndefined(interaction.request);
    if (!request) throw new CassetteFormatError(path, line, `interaction has no "request"`);
    const sent: MessageEntry = { type: "message", t, dir: "c2s", msg: request };
    if (transport === "http") sent.x = exchange++;
    entries.push(located(sent, line));
    const response = objectOrUndefined(interaction.response);
    if (!response) return;
    t += typeof interaction.latency_ms === "number" ? interaction.latency_ms : 0;
    const answer: MessageEntry = { type: "message", t, dir: "s2c", msg: response };
    if (sent.x !== undefined) answer.x = sent.x;
    entries.push(located(answer, line));
  });
  const info = objectOrUndefined(metadata.server_info);
  const server: Converted["header"]["server"] = {};
  const url = asString(metadata.server_url);
  if (transport === "http" && url) server.url = url;
  if (typeof info?.name === "string") server.name = info.name;
  if (typeof info?.version === "string") server.version = info.version;
  return {
    source: `mcp-recorder@${version}`,
    header: {
      transport,
      created: isoTime(metadata.recorded_at),
      protocolVersion: asString(metadata.protocol_version),
      server,
      meta: { sourceFormatVersion: version, timesFromLatencies: true },
    },
    entries,
  };
}
