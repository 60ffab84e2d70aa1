/**
 * Nothing recorded is lost: a recorder killed with SIGKILL mid-session leaves
 * a cassette holding every frame it had forwarded.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { CLI, EVERYTHING, ROOT, tempDir } from "../helpers.ts";

test("SIGKILL mid-session: every forwarded frame is in the cassette and it still loads", async () => {
  const dir = tempDir();
  const cassette = path.join(dir, "killed.cassette.jsonl");
  const child = spawn(CLI[0], [...CLI.slice(1), "record", "-o", cassette, "--", ...EVERYTHING], {
    cwd: ROOT,
    stdio: ["pipe", "pipe", "ignore"],
  });
  const received: string[] = [];
  let buffer = "";
  const waiters: Array<() => void> = [];
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
    buffer += chunk;
    const lines = buffer.split("\n");
    buffer = lines.pop()!;
    received.push(...lines.filter((line) => line.trim() !== ""));
    waiters.splice(0).forEach((wake) => wake());
  });
  const answered = async (id: number) => {
    while (!received.some((line) => JSON.parse(line).id === id)) {
      await new Promise<void>((wake) => waiters.push(wake));
    }
  };
  const send = (message: unknown) => child.stdin.write(JSON.stringify(message) + "\n");
  send({
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: {
      protocolVersion: "2025-11-25",
      capabilities: {},
      clientInfo: { name: "k", version: "1" },
    },
  });
  await answered(1);
  send({ jsonrpc: "2.0", method: "notifications/initialized" });
  for (let id = 2; id < 12; id++) {
    send({
      jsonrpc: "2.0",
      id,
      method: "tools/call",
      params: { name: "echo", arguments: { message: `m${id}` } },
    });
  }
  await answered(11);
  child.kill("SIGKILL");
  await new Promise((resolve) => child.once("close", resolve));

  const { loadCassette } = await import("../../src/cassette/reader.ts");
  const loaded = await loadCassette(cassette);
  const onDisk = loaded.entries
    .filter((entry) => entry.type === "message" && entry.dir === "s2c")
    .map((entry) => JSON.stringify((entry as { msg: unknown }).msg));
  for (const line of received) {
    assert.ok(onDisk.includes(JSON.stringify(JSON.parse(line))), `missing from cassette: ${line}`);
  }
  const requests = loaded.entries.filter((entry) =>
    entry.type === "message" && entry.dir === "c2s"
  );
  assert.equal(requests.length, 12);
  // The file is complete lines only: no session end was written, nothing torn.
  assert.equal(loaded.torn, undefined);
  assert.ok(readFileSync(cassette, "utf8").endsWith("\n"));
});
