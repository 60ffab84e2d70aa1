/**
 * Cassettes written by the view and prune tests (and scripts/bench_view.ts):
 * a stdio session of tool calls with progress, a sampling request the server
 * asks in the middle of a call, a banner line, and a session end; and the
 * reports a run against them would write.
 */
import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";

/** Options of {@linkcode toolCassette}. */
export interface ToolCassetteOptions {
  /** How many tools/call exchanges after the lifecycle. */
  calls: number;
  /** Tool names, used in turn. */
  tools?: string[];
  /** A text put in the first call's answer (to test escaping). */
  answerText?: string;
}

const header = {
  format: "mcp-cassette",
  version: 1,
  recorder: "mcp-cassette/0.1.0",
  created: "2026-12-01T09:00:00.000Z",
  transport: "stdio",
  era: "legacy",
  protocolVersion: "2025-11-25",
  server: { command: ["node", "weather.js"], name: "weather", version: "1.2.3" },
  redaction: { rules: ["keys:default", "detector:email"] },
};

/**
 * The lines of a stdio cassette: line 1 the header, then a session start,
 * a banner, the lifecycle, tools/list and `calls` tool calls. Call 2 (if
 * any) gets a progress notification and asks the client for sampling; the
 * last call's answer is an error. Each call takes (i % 7) + 1 ms.
 */
export function toolCassette(options: ToolCassetteOptions): string[] {
  const tools = options.tools ?? ["forecast", "alerts", "geocode"];
  const lines: unknown[] = [header];
  let t = 0;
  const add = (entry: Record<string, unknown>) => lines.push({ t: t += 0.5, ...entry });
  const c2s = (msg: unknown) => add({ type: "message", dir: "c2s", msg });
  const s2c = (msg: unknown) => add({ type: "message", dir: "s2c", msg });
  add({ type: "session", session: "default", event: "start" });
  add({ type: "raw", dir: "s2c", text: "weather server ready" });
  c2s({
    jsonrpc: "2.0",
    id: 0,
    method: "initialize",
    params: { protocolVersion: "2025-11-25", capabilities: { sampling: {} }, clientInfo: {} },
  });
  s2c({
    jsonrpc: "2.0",
    id: 0,
    result: { protocolVersion: "2025-11-25", serverInfo: { name: "weather", version: "1.2.3" } },
  });
  c2s({ jsonrpc: "2.0", method: "notifications/initialized" });
  c2s({ jsonrpc: "2.0", id: "list", method: "tools/list" });
  s2c({ jsonrpc: "2.0", id: "list", result: { tools: tools.map((name) => ({ name })) } });
  for (let i = 1; i <= options.calls; i++) {
    const name = tools[(i - 1) % tools.length];
    c2s({
      jsonrpc: "2.0",
      id: i,
      method: "tools/call",
      params: { name, arguments: { city: `City ${i}` }, _meta: { progressToken: `p${i}` } },
    });
    if (i === 2) {
      s2c({
        jsonrpc: "2.0",
        method: "notifications/progress",
        params: { progressToken: "p2", progress: 1, total: 2 },
      });
      s2c({ jsonrpc: "2.0", id: "s1", method: "sampling/createMessage", params: { messages: [] } });
      c2s({ jsonrpc: "2.0", id: "s1", result: { role: "assistant", content: { type: "text" } } });
    }
    t += i % 7;
    const text = i === 1 && options.answerText ? options.answerText : `${name} for City ${i}`;
    s2c(
      i === options.calls && i > 2
        ? { jsonrpc: "2.0", id: i, error: { code: -32602, message: "unknown city" } }
        : { jsonrpc: "2.0", id: i, result: { content: [{ type: "text", text }] } },
    );
  }
  add({ type: "session", session: "default", event: "end", exitCode: 0 });
  return lines.map((line) => JSON.stringify(line));
}

/** Writes the lines as a cassette file. */
export function writeCassette(path: string, lines: readonly string[]): void {
  writeFileSync(path, lines.join("\n") + "\n");
}

/** The SHA-256 of a cassette file's first line, as reports name it. */
export function headerHash(path: string): string {
  const first = readFileSync(path, "utf8").split("\n")[0];
  return createHash("sha256").update(first).digest("hex");
}

/** Per recorded request line, its counts (absent lines are never asked). */
export type Uses = Record<number, Partial<Record<"played" | "inexact" | "repeated", number>>>;

/**
 * A report as `replay --report` writes it: one row per recorded client
 * request of the cassette, with the counts given in `uses`.
 */
export function reportFor(path: string, uses: Uses, misses: unknown[] = []): string {
  const rows = readFileSync(path, "utf8").split("\n").flatMap((text, index) => {
    if (index === 0 || text.trim() === "") return [];
    const entry = JSON.parse(text);
    const msg = entry.msg;
    if (entry.type !== "message" || entry.dir !== "c2s" || typeof msg?.method !== "string") {
      return [];
    }
    if (msg.id === undefined) return [];
    const line = index + 1;
    const use = uses[line] ?? {};
    return [{
      line,
      method: msg.method,
      name: msg.params?.name,
      played: use.played ?? 0,
      inexact: use.inexact ?? 0,
      repeated: use.repeated ?? 0,
      outOfOrder: 0,
    }];
  });
  return JSON.stringify({
    cassette: { headerSha256: headerHash(path) },
    recorded: rows,
    misses,
    repeats: [],
    inexact: [],
    unplayed: [],
  });
}

/** The 1-based line numbers of the cassette lines whose text contains `needle`. */
export function linesWith(path: string, needle: string): number[] {
  return readFileSync(path, "utf8").split("\n").flatMap((text, index) =>
    text.includes(needle) ? [index + 1] : []
  );
}
