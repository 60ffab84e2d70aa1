/**
 * Flow on the replay side: a client that asks for large recorded answers and
 * reads them slowly does not make replay buffer without bound. Replay stops
 * reading requests while more than 1 MiB of output waits for the client.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { CLI, ROOT, tempDir } from "../helpers.ts";
import { figure, LONG, rssKiB, sampleRss } from "./_helpers.ts";

const MiB = 1024 * 1024;
/** Replay's own footprint is well under this; 100 answers of 1 MiB held in memory would not be. */
const RSS_BOUND_KIB = 150 * 1024;

function bigCassette(file: string): void {
  const text = "x".repeat(MiB);
  const lines = [
    {
      format: "mcp-cassette",
      version: 1,
      recorder: "test",
      created: "2026-01-01T00:00:00Z",
      transport: "stdio",
      server: { command: ["big"] },
    },
    {
      type: "message",
      t: 0,
      dir: "c2s",
      msg: { jsonrpc: "2.0", id: 1, method: "initialize", params: {} },
    },
    {
      type: "message",
      t: 1,
      dir: "s2c",
      msg: {
        jsonrpc: "2.0",
        id: 1,
        result: {
          protocolVersion: "2025-11-25",
          capabilities: { tools: {} },
          serverInfo: { name: "big", version: "1" },
        },
      },
    },
    {
      type: "message",
      t: 2,
      dir: "c2s",
      msg: { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "big", arguments: {} } },
    },
    {
      type: "message",
      t: 3,
      dir: "s2c",
      msg: { jsonrpc: "2.0", id: 2, result: { content: [{ type: "text", text }] } },
    },
  ];
  writeFileSync(file, lines.map((line) => JSON.stringify(line)).join("\n") + "\n");
}

test("a slow reader of large answers: replay's RSS stays bounded and every answer arrives", async () => {
  const dir = tempDir("mcp-cassette-replay-flow-");
  const cassette = path.join(dir, "big.cassette.jsonl");
  bigCassette(cassette);
  const requests = LONG ? 200 : 100;
  const rate = 25 * MiB;
  try {
    const child = spawn(CLI[0], [...CLI.slice(1), "replay", "--quiet", cassette], {
      cwd: ROOT,
      stdio: ["pipe", "pipe", "ignore"],
    });
    const sampler = sampleRss(child.pid!, 25);
    const input = [{ jsonrpc: "2.0", id: 0, method: "initialize", params: {} }];
    for (let id = 1; id <= requests; id++) {
      input.push(
        {
          jsonrpc: "2.0",
          id,
          method: "tools/call",
          params: { name: "big", arguments: {} },
        } as never,
      );
    }
    child.stdin.write(input.map((message) => JSON.stringify(message)).join("\n") + "\n");
    let bytes = 0;
    let answers = 0;
    let baseline = 0;
    const started = performance.now();
    await new Promise<void>((resolve, reject) => {
      child.stdout.on("data", (chunk: Buffer) => {
        if (bytes === 0) baseline = rssKiB(child.pid!) ?? 0;
        bytes += chunk.length;
        for (let at = chunk.indexOf(10); at !== -1; at = chunk.indexOf(10, at + 1)) answers++;
        if (answers === requests + 1) {
          child.stdin.end();
          resolve();
        }
        const due = started + (bytes / rate) * 1000 - performance.now();
        if (due > 1) {
          child.stdout.pause();
          setTimeout(() => child.stdout.resume(), due);
        }
      });
      child.on("error", reject);
    });
    await new Promise((resolve) => child.once("close", resolve));
    const peak = Math.max(0, ...sampler.stop());
    figure("stdio-replay-slow-reader", {
      answers: requests,
      streamedMB: Math.round(bytes / MiB),
      replayRssBaselineMB: Math.round(baseline / 1024),
      replayRssPeakMB: Math.round(peak / 1024),
      boundMB: RSS_BOUND_KIB / 1024,
    });
    assert.equal(answers, requests + 1);
    assert.ok(bytes > requests * MiB, "every answer arrived whole");
    assert.ok(peak > 0 && peak < RSS_BOUND_KIB, `replay RSS peaked at ${peak} KiB`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
