/**
 * The Python mcp-cassette's JSON documents (`format_version` 1 to 3): one
 * object with the session metadata and a `messages` array.
 *
 * @module
 */
import { CassetteFormatError } from "../../errors/errors.ts";
import type { Json, JsonObject } from "../../jsonrpc/messages.ts";
import type { MessageEntry, RedactionInfo, Transport } from "../format.ts";
import { asString, located, objectOrUndefined } from "./common.ts";
import type { Converted } from "./common.ts";

/** True when a parsed document looks like the Python tool's cassette. */
export function isPythonCassette(document: unknown): document is JsonObject {
  const object = objectOrUndefined(document);
  return !!object && typeof object.format_version === "number" && Array.isArray(object.messages);
}

/** Line numbers of each `"seq": N` in the source text, so findings can point at it. */
function seqLines(text: string): Map<number, number> {
  const lines = new Map<number, number>();
  let line = 1;
  let last = 0;
  for (const match of text.matchAll(/"seq"\s*:\s*(\d+)/g)) {
    for (let i = last; i < match.index!; i++) if (text.charCodeAt(i) === 10) line++;
    last = match.index!;
    const seq = Number(match[1]);
    if (!lines.has(seq)) lines.set(seq, line);
  }
  return lines;
}

function transportOf(path: string, value: Json | undefined): Transport {
  if (value === undefined || value === null || value === "stdio") return "stdio";
  if (value === "http" || value === "streamable-http" || value === "streamable_http") return "http";
  if (value === "sse") return "sse";
  throw new CassetteFormatError(
    path,
    1,
    `unknown transport ${JSON.stringify(value)} in a Python mcp-cassette file`,
  );
}

function redactionOf(value: Json | undefined): RedactionInfo | undefined {
  const redaction = objectOrUndefined(value);
  if (!redaction) return undefined;
  const rules = Array.isArray(redaction.rule_ids)
    ? redaction.rule_ids.filter((id) => typeof id === "string")
    : [];
  const backends = Array.isArray(redaction.backends)
    ? redaction.backends.map((b) => `backend:${b}`)
    : [];
  const packs = Array.isArray(redaction.packs)
    ? redaction.packs.map(objectOrUndefined).filter((pack) => pack !== undefined).map((pack) => ({
      name: asString(pack.id) ?? asString(pack.path) ?? "unnamed",
      sha256: asString(pack.sha256) ?? "",
    }))
    : [];
  const info: RedactionInfo = { rules: [...backends, ...(rules as string[])] };
  if (packs.length > 0) info.packs = packs;
  return info;
}

/** Converts a Python mcp-cassette document. */
export function convertPython(path: string, text: string, document: JsonObject): Converted {
  const version = document.format_version as number;
  if (version < 1 || version > 3) {
    throw new CassetteFormatError(
      path,
      1,
      `Python mcp-cassette format_version ${version} is not supported (this build imports 1 to 3)`,
    );
  }
  const lines = seqLines(text);
  const info = objectOrUndefined(document.server_info);
  const messages = (document.messages as Json[]).map(objectOrUndefined).filter((m) =>
    m !== undefined
  );
  messages.sort((a, b) => Number(a.seq ?? 0) - Number(b.seq ?? 0));
  const entries = messages.map((message, i) => {
    const sender = message.sender;
    if (sender !== "client" && sender !== "server") {
      throw new CassetteFormatError(
        path,
        lines.get(Number(message.seq)) ?? 1,
        `message sender must be "client" or "server"`,
      );
    }
    const entry: MessageEntry = {
      type: "message",
      t: typeof message.t_offset_ms === "number" ? message.t_offset_ms : 0,
      dir: sender === "client" ? "c2s" : "s2c",
      msg: message.payload ?? null,
    };
    if (typeof message.exchange === "number") entry.x = message.exchange;
    if (message.channel === "get") entry.sse = { stream: "get" };
    return located(entry, lines.get(Number(message.seq)) ?? i + 2);
  });
  const meta: JsonObject = { sourceFormatVersion: version };
  if (typeof document.session_id === "string") meta.sessionId = document.session_id;
  const redaction = objectOrUndefined(document.redaction);
  if (typeof redaction?.profile === "string") meta.redactionProfile = redaction.profile;
  const redactedSeqs = messages.filter((m) => m.redacted === true).length;
  if (redactedSeqs > 0) meta.redactedMessages = redactedSeqs;
  const server: Converted["header"]["server"] = {};
  if (typeof document.server_url === "string") server.url = document.server_url;
  if (typeof info?.name === "string") server.name = info.name;
  if (typeof info?.version === "string") server.version = info.version;
  return {
    source: `python-mcp-cassette@${version}`,
    header: {
      transport: transportOf(path, document.transport),
      created: asString(document.recorded_at),
      protocolVersion: asString(document.protocol_version),
      server,
      redaction: redactionOf(document.redaction),
      meta,
    },
    entries,
  };
}
