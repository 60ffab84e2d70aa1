/**
 * The few request headers the HTTP replay reads once (src/http/headers.ts
 * `requestHeads`): taken from the server's raw list in one pass, they must
 * be what `Headers.get` gives, whatever the case the client wrote the names
 * in, with repeats joined, and null when absent.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { requestHeads } from "../../src/http/headers.ts";
import type { RequestHeads } from "../../src/http/headers.ts";

const NAMES: [keyof RequestHeads, string][] = [
  ["host", "host"],
  ["origin", "origin"],
  ["accept", "accept"],
  ["contentType", "content-type"],
  ["contentLength", "content-length"],
  ["sessionId", "mcp-session-id"],
  ["protocolVersion", "mcp-protocol-version"],
];

function request(raw: [string, string][]): Request {
  return new Request("http://127.0.0.1/mcp", { headers: raw });
}

function assertLikeHeaders(raw: [string, string][]) {
  const viaHeaders = requestHeads(request(raw));
  const viaRaw = requestHeads(request(raw), raw);
  for (const [field, name] of NAMES) {
    assert.equal(viaRaw[field], new Headers(raw).get(name), `${name} from ${JSON.stringify(raw)}`);
    assert.equal(viaHeaders[field], viaRaw[field], `${name}: raw list and Headers agree`);
  }
}

test("request heads: names in any case, as Headers.get reads them", () => {
  assertLikeHeaders([
    ["Host", "127.0.0.1:8080"],
    ["Accept", "application/json, text/event-stream"],
    ["Content-Type", "application/json"],
    ["Content-Length", "2"],
    ["Mcp-Session-Id", "abc"],
    ["MCP-Protocol-Version", "2025-06-18"],
    ["User-Agent", "Bun/1.4.4"],
  ]);
  assertLikeHeaders([
    ["host", "localhost"],
    ["ORIGIN", "http://localhost:3000"],
    ["mcp-session-id", "x"],
    ["mCp-PrOtOcOl-VeRsIoN", "2025-03-26"],
    ["content-TYPE", "application/json; charset=utf-8"],
  ]);
});

test("request heads: a repeated header is joined with a comma, an absent one is null", () => {
  const raw: [string, string][] = [
    ["Accept", "application/json"],
    ["accept", "text/event-stream"],
    ["x-other", "1"],
  ];
  assertLikeHeaders(raw);
  const heads = requestHeads(request(raw), raw);
  assert.equal(heads.accept, "application/json, text/event-stream");
  assert.equal(heads.sessionId, null);
  assert.equal(heads.origin, null);
});
