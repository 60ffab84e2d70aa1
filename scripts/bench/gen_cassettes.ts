/**
 * Writes the scale benchmarks' cassettes (issue 24): realistic stdio
 * recordings, shaped like tests/interop/golden/everything.cassette.jsonl (a
 * version-2 header, a session start, initialize, notifications/initialized,
 * tools/list, then N `tools/call` exchanges with varied arguments and results
 * of 100 to 200 bytes, a session end: sizes near the issue's 30 MB and 149 MB). Each call is a pure function
 * of its index and the seed, so the benchmark can send the first or the last
 * recorded call without reading the file. Written a megabyte at a time, never
 * held whole.
 *
 * Usage: deno run -A --no-check scripts/bench/gen_cassettes.ts [--out DIR] [--sizes 10,1500,100000,frames:1000000] [--seed 24]
 *   Prints one line per cassette: path, calls, frames, bytes, milliseconds taken.
 *   Without --out, writes into a new folder under the system temp folder.
 *
 * @module
 */
import { closeSync, fsyncSync, mkdtempSync, openSync, statSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

/** The handshake the benchmark's client sends, recorded verbatim so it matches as sent. */
export const INITIALIZE = JSON.stringify({
  jsonrpc: "2.0",
  id: 0,
  method: "initialize",
  params: {
    protocolVersion: "2025-11-25",
    capabilities: {},
    clientInfo: { name: "bench", version: "1" },
  },
});
/** The notification that completes the handshake. */
export const INITIALIZED = JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" });

/** Frames before the first call: initialize and its answer, initialized, tools/list and its answer. */
export const HANDSHAKE_FRAMES = 5;

/** How many calls make a cassette of `frames` frames (the handshake included). */
export function callsForFrames(frames: number): number {
  return Math.floor((frames - HANDSHAKE_FRAMES) / 2);
}

/** A 32-bit integer hash of (seed, index, salt): each call is decided on its own. */
function mix(seed: number, index: number, salt: number): number {
  let h = Math.imul(seed ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(index + 1, 0xc2b2ae35) ^ salt;
  h = Math.imul(h ^ (h >>> 16), 0x7feb352d);
  h = Math.imul(h ^ (h >>> 15), 0x846ca68b);
  return (h ^ (h >>> 16)) >>> 0;
}

const CITIES = ["Lisbon", "Porto", "Oslo", "Kyoto", "Quito", "Lagos", "Perth", "Tromsø"];
const WORDS = [
  "alpha",
  "beacon",
  "cassette",
  "delta",
  "ember",
  "fjord",
  "granite",
  "harbour",
  "island",
  "juniper",
  "kernel",
  "lantern",
];
const TOOLS = ["get_weather", "search_docs", "read_file", "list_issues"] as const;

/** Words picked by hash: text that varies from call to call. */
function words(seed: number, index: number, count: number): string {
  const out: string[] = [];
  for (let k = 0; k < count; k++) out.push(WORDS[mix(seed, index, 100 + k) % WORDS.length]);
  return out.join(" ");
}

/** The `params` of call `index`. */
function callParams(seed: number, index: number): { name: string; arguments: object } {
  const tool = TOOLS[mix(seed, index, 1) % TOOLS.length];
  const n = mix(seed, index, 2);
  switch (tool) {
    case "get_weather":
      return { name: tool, arguments: { city: CITIES[n % CITIES.length], day: index } };
    case "search_docs":
      return { name: tool, arguments: { query: words(seed, index, 2), limit: 1 + (n % 20) } };
    case "read_file":
      return { name: tool, arguments: { path: `src/mod_${index}.ts`, lines: [1, 1 + (n % 90)] } };
    default:
      return { name: tool, arguments: { repo: `acme/r${n % 97}`, state: "open", page: index } };
  }
}

/** The text of call `index`'s request frame (JSON-RPC id `index + 2`; 0 and 1 are the handshake's). */
export function callRequest(seed: number, index: number): string {
  return JSON.stringify({
    jsonrpc: "2.0",
    id: index + 2,
    method: "tools/call",
    params: callParams(seed, index),
  });
}

/** The text of call `index`'s answer: a text block of 2 to 8 words, some with structured content. */
function callAnswer(seed: number, index: number): string {
  const n = mix(seed, index, 3);
  const text = `#${index}: ${words(seed, index, 2 + (n % 7))}`;
  const result: Record<string, unknown> = { content: [{ type: "text", text }] };
  if (n % 3 === 0) result.structuredContent = { score: (n % 1000) / 10, hits: n % 7 };
  if (n % 11 === 0) result.isError = true;
  return JSON.stringify({ jsonrpc: "2.0", id: index + 2, result });
}

const TOOLS_LIST = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  result: {
    tools: TOOLS.map((name) => ({
      name,
      description: `The ${name.replace("_", " ")} tool`,
      inputSchema: { type: "object" },
    })),
  },
});

/** One version-2 message line: `msg` is the frame's text, last in its line. */
function line(t: number, dir: "c2s" | "s2c", frame: string): string {
  return `{"type":"message","t":${t.toFixed(3)},"dir":"${dir}","msg":${frame}}\n`;
}

/** The lines before the first call. */
function opening(): string {
  const header = JSON.stringify({
    format: "mcp-cassette",
    version: 2,
    recorder: "mcp-cassette/0.1.0 (scripts/bench/gen_cassettes.ts)",
    created: "2026-12-01T00:00:00.000Z",
    transport: "stdio",
    protocolVersion: "2025-11-25",
    server: { command: ["bench-server"], name: "bench-server", version: "1.0.0" },
  });
  const answer = JSON.stringify({
    jsonrpc: "2.0",
    id: 0,
    result: {
      protocolVersion: "2025-11-25",
      capabilities: { tools: {} },
      serverInfo: { name: "bench-server", version: "1.0.0" },
    },
  });
  return header + "\n" +
    '{"type":"session","t":0,"session":"default","event":"start"}\n' +
    line(3.2, "c2s", INITIALIZE) + line(9.8, "s2c", answer) + line(10.4, "c2s", INITIALIZED) +
    line(11.0, "c2s", JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" })) +
    line(12.6, "s2c", TOOLS_LIST);
}

/** What one written cassette holds. */
export interface Generated {
  file: string;
  calls: number;
  frames: number;
  bytes: number;
  ms: number;
}

/** Writes a cassette of `calls` calls to `file`, a megabyte at a time, and syncs it to disk. */
export function generateCassette(file: string, calls: number, seed = 24): Generated {
  const started = performance.now();
  const fd = openSync(file, "w");
  let chunk = opening();
  let t = 20;
  for (let i = 0; i < calls; i++) {
    t += 0.5 + (mix(seed, i, 4) % 400) / 100;
    chunk += line(t, "c2s", callRequest(seed, i));
    t += 1 + (mix(seed, i, 5) % 2000) / 100;
    chunk += line(t, "s2c", callAnswer(seed, i));
    if (chunk.length > 1 << 20) {
      writeSync(fd, chunk);
      chunk = "";
    }
  }
  chunk += `{"type":"session","t":${(t + 5).toFixed(3)},"session":"default","event":"end",` +
    `"exitCode":0}\n`;
  writeSync(fd, chunk);
  // On disk before any timing: writeback of 150 MB in the background takes CPU from the runs.
  fsyncSync(fd);
  closeSync(fd);
  return {
    file,
    calls,
    frames: HANDSHAKE_FRAMES + 2 * calls,
    bytes: statSync(file).size,
    ms: performance.now() - started,
  };
}

/** A size from the command line: a call count, or `frames:N`. */
export function parseSize(text: string): number {
  const frames = /^frames:(\d+(?:e\d+)?)$/.exec(text);
  if (frames) return callsForFrames(Number(frames[1]));
  const calls = Number(text);
  if (!Number.isInteger(calls) || calls < 1) throw new Error(`bad size ${text}`);
  return calls;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({
    args: process.argv.slice(2),
    options: {
      out: { type: "string" },
      sizes: { type: "string", default: "10,1500,100000,frames:1000000" },
      seed: { type: "string", default: "24" },
    },
  });
  const out = values.out ?? mkdtempSync(path.join(tmpdir(), "mcp-cassette-scale-"));
  for (const size of values.sizes.split(",")) {
    const calls = parseSize(size);
    const g = generateCassette(
      path.join(out, `calls-${calls}.cassette.jsonl`),
      calls,
      Number(values.seed),
    );
    console.log(
      `${g.file}\t${g.calls} calls\t${g.frames} frames\t${g.bytes} bytes\t${g.ms.toFixed(0)} ms`,
    );
  }
}
