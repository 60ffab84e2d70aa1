/**
 * The streaming stdio replay, end to end: the official SDK client against
 * `mcp-cassette replay` of a cassette far larger than one read batch, and a
 * bad line found after the first answers.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { Client, StdioClientTransport } from "../sdk.ts";
import { CLI, tempDir } from "../helpers.ts";
import { callRequest, generateCassette, INITIALIZE } from "../../scripts/bench/gen_cassettes.ts";

const CALLS = 3000;

function bigCassette(dir: string): string {
  const file = path.join(dir, "big.cassette.jsonl");
  generateCassette(file, CALLS);
  return file;
}

/** The recorded call `index`'s name and arguments, as the generator made them. */
function recordedCall(index: number): { name: string; arguments: Record<string, unknown> } {
  return (JSON.parse(callRequest(24, index)) as { params: never }).params;
}

test("the SDK client gets the first and the last recorded call of a 3,000-call cassette", async () => {
  const file = bigCassette(tempDir());
  const client = new Client({ name: "streaming", version: "1" });
  await client.connect(
    new StdioClientTransport({ command: CLI[0], args: [...CLI.slice(1), "replay", "-q", file] }),
  );
  try {
    const first = await client.callTool(recordedCall(0));
    const last = await client.callTool(recordedCall(CALLS - 1));
    const text = (result: typeof first) => (result.content as { text: string }[])[0].text;
    assert.match(text(first), /^#0: /);
    assert.match(text(last), new RegExp(`^#${CALLS - 1}: `));
  } finally {
    await client.close();
  }
});

test("a bad line past the first answers stops the replay with exit 2 and the line", async () => {
  const file = bigCassette(tempDir());
  const lines = readFileSync(file, "utf8").split("\n");
  lines[4000] = "{not json";
  writeFileSync(file, lines.join("\n"));
  const child = spawn(CLI[0], [...CLI.slice(1), "replay", "-q", file], {
    stdio: ["pipe", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk) => (stdout += chunk));
  child.stderr.on("data", (chunk) => (stderr += chunk));
  // The last call waits for the rest of the file; stdin stays open: the bad line ends the replay.
  child.stdin.write(INITIALIZE + "\n" + callRequest(24, CALLS - 1) + "\n");
  const code = await new Promise<number | null>((resolve) => child.on("exit", resolve));
  child.stdin.destroy();
  assert.match(stdout, /"serverInfo"/, "initialize was answered from the part read");
  assert.equal(code, 2, stderr);
  const errorLines = stderr.trim().split("\n");
  assert.equal(errorLines.length, 1, stderr);
  assert.match(errorLines[0], /big\.cassette\.jsonl:4001: not valid JSON/);
});
