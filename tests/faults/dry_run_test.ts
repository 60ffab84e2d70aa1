import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { Entry } from "../../src/cassette/format.ts";
import { dryRunFaults, parseFaultOverlay, recordedRequests } from "../../src/faults/mod.ts";

function c2s(msg: unknown, t: number): Entry {
  return { type: "message", dir: "c2s", t, msg } as Entry;
}

const entries: Entry[] = [
  c2s({ jsonrpc: "2.0", id: 0, method: "initialize", params: {} }, 0),
  { type: "message", dir: "s2c", t: 1, msg: { jsonrpc: "2.0", id: 0, result: {} } },
  c2s({ jsonrpc: "2.0", method: "notifications/initialized" }, 2),
  c2s({
    jsonrpc: "2.0",
    id: 1,
    method: "tools/call",
    params: { name: "get-sum", arguments: { a: 1, b: 2 } },
  }, 3),
  { type: "raw", dir: "s2c", t: 4, text: "banner" },
  c2s([
    { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "echo" } },
    { jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "get-sum" } },
  ], 5),
  c2s({ jsonrpc: "2.0", id: 4, method: "resources/read", params: { uri: "file:///a" } }, 6),
  c2s({ jsonrpc: "2.0", id: 5, method: "tools/call", params: { name: "get-sum" } }, 7),
];

describe("recordedRequests", () => {
  it("lists client requests in order, batch members included, with their names", () => {
    assert.deepEqual(recordedRequests(entries).map(({ method, name }) => ({ method, name })), [
      { method: "initialize", name: undefined },
      { method: "tools/call", name: "get-sum" },
      { method: "tools/call", name: "echo" },
      { method: "tools/call", name: "get-sum" },
      { method: "resources/read", name: "file:///a" },
      { method: "tools/call", name: "get-sum" },
    ]);
  });
});

describe("dryRunFaults", () => {
  it("tells which recorded requests each fault would hit, and shows entries that hit nothing", () => {
    const overlay = parseFaultOverlay(
      JSON.stringify({
        faults: [
          {
            match: { tool: "get-sum", nth: [2, 3] },
            fault: { kind: "error", code: -32000, message: "rate limited" },
          },
          { name: "slow read", match: { uri: "file:///a" }, fault: { kind: "delay", ms: 50 } },
          { target: { method: "prompts/get" }, type: "timeout" },
          { match: { method: "initialize" }, fault: { kind: "http-status", status: 401 } },
        ],
      }),
      "faults.json",
    );
    assert.deepEqual(dryRunFaults(overlay, recordedRequests(entries)), [
      {
        entry: "fault #1 (error on tools/call get-sum nth 2,3)",
        hits: [{ index: 3, method: "tools/call", name: "get-sum" }, {
          index: 5,
          method: "tools/call",
          name: "get-sum",
        }],
      },
      {
        entry: 'fault #2 "slow read" (delay on resources/read file:///a)',
        hits: [{ index: 4, method: "resources/read", name: "file:///a" }],
      },
      { entry: "fault #3 (timeout on prompts/get)", hits: [] },
      { entry: "fault #4 (http-status on initialize)", hits: [{ index: 0, method: "initialize" }] },
    ]);
  });

  it("is repeatable for probabilistic faults and follows the seed", () => {
    const overlay = parseFaultOverlay(
      `{"seed": 11, "faults": [{"match": {"probability": 0.5}, "fault": {"kind": "timeout"}}]}`,
      "p.json",
    );
    const requests = Array.from({ length: 40 }, () => recordedRequests(entries)).flat();
    const picks = (seed?: number) =>
      dryRunFaults(overlay, requests, seed === undefined ? {} : { seed })[0].hits.map((hit) =>
        hit.index
      );
    assert.deepEqual(picks(), picks());
    assert.deepEqual(picks(), picks(11));
    assert.notDeepEqual(picks(), picks(12));
  });
});
