/** Builds small cassettes for the lint, diff and inspect tests. */
import { writeFileSync } from "node:fs";
import path from "node:path";
import type { Cassette, LocatedEntry } from "../../src/cassette/reader.ts";
import type { CassetteHeader, Entry } from "../../src/cassette/format.ts";
import type { Json, JsonObject } from "../../src/jsonrpc/messages.ts";
import { tempDir } from "../helpers.ts";

/** A header like a stdio recorder writes. */
export function header(extra: Partial<CassetteHeader> = {}): CassetteHeader {
  return {
    format: "mcp-cassette",
    version: 1,
    recorder: "mcp-cassette/0.1.0",
    created: "2026-01-01T00:00:00.000Z",
    transport: "stdio",
    era: "legacy",
    protocolVersion: "2025-11-25",
    server: { name: "test-server", version: "1.0.0" },
    ...extra,
  };
}

/** A tool definition. */
export function tool(
  name: string,
  description = "Does a thing.",
  inputSchema: JsonObject = { type: "object", properties: {} },
): JsonObject {
  return { name, description, inputSchema };
}

/** The entries of a session: initialize, initialized, tools/list with `tools`, then one tools/call per result. */
export function session(tools: Json[], results: Json[] = [], more: Entry[] = []): Entry[] {
  const entries: Entry[] = [
    {
      type: "message",
      t: 1,
      dir: "c2s",
      msg: {
        jsonrpc: "2.0",
        id: 0,
        method: "initialize",
        params: {
          protocolVersion: "2025-11-25",
          capabilities: {},
          clientInfo: { name: "t", version: "1" },
        },
      },
    },
    {
      type: "message",
      t: 5,
      dir: "s2c",
      msg: {
        jsonrpc: "2.0",
        id: 0,
        result: {
          protocolVersion: "2025-11-25",
          capabilities: { tools: {} },
          serverInfo: { name: "test-server", version: "1.0.0" },
        },
      },
    },
    {
      type: "message",
      t: 6,
      dir: "c2s",
      msg: { jsonrpc: "2.0", method: "notifications/initialized" },
    },
    {
      type: "message",
      t: 7,
      dir: "c2s",
      msg: { jsonrpc: "2.0", id: 1, method: "tools/list", params: {} },
    },
    { type: "message", t: 9, dir: "s2c", msg: { jsonrpc: "2.0", id: 1, result: { tools } } },
  ];
  results.forEach((result, i) => {
    entries.push({
      type: "message",
      t: 10 + i * 2,
      dir: "c2s",
      msg: {
        jsonrpc: "2.0",
        id: 10 + i,
        method: "tools/call",
        params: { name: "x", arguments: {} },
      },
    });
    entries.push({
      type: "message",
      t: 11 + i * 2,
      dir: "s2c",
      msg: { jsonrpc: "2.0", id: 10 + i, result: result },
    });
  });
  return [...entries, ...more];
}

/** An in-memory cassette (line numbers as a file would have them). */
export function cassette(
  entries: Entry[],
  head: CassetteHeader = header(),
  file = "test.cassette.jsonl",
): Cassette {
  const located = entries.map((entry, i) =>
    Object.assign(structuredClone(entry), { line: i + 2 }) as LocatedEntry
  );
  return { path: file, header: head, entries: located };
}

/** Writes a cassette file into a fresh temporary directory; returns its path. */
export function writeCassette(
  entries: Entry[],
  head: CassetteHeader = header(),
  name = "test.cassette.jsonl",
  dir = tempDir(),
): string {
  const file = path.join(dir, name);
  writeFileSync(file, [head, ...entries].map((line) => JSON.stringify(line)).join("\n") + "\n");
  return file;
}

/** A text content result. */
export function textResult(text: string): JsonObject {
  return { content: [{ type: "text", text }] };
}
