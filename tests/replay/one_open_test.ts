/**
 * One way into a cassette: `replay` opens the file once, reads its head to
 * tell the format, and hands that same open file to the reader of the
 * format (ours, streamed or read in one go, or another tool's, converted).
 * Counted for real: the replay runs under `strace`, and every open of the
 * cassette's path is in its log. A large cassette also gets the one
 * positional handle its frames are read back through (frames on disk).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import path from "node:path";
import { CLI, ROOT, run, skipTest, tempDir } from "../helpers.ts";

const INITIALIZE = JSON.stringify({
  jsonrpc: "2.0",
  id: 0,
  method: "initialize",
  params: {
    protocolVersion: "2025-11-25",
    capabilities: {},
    clientInfo: { name: "t", version: "1" },
  },
}) + "\n";

const hasStrace = spawnSync("strace", ["-V"]).status === 0;

/** The example cassette with `exchanges` more tools/list exchanges. */
function grown(file: string, exchanges: number): string {
  const lines = fs.readFileSync(
    path.join(ROOT, "examples", "cassettes", "weather.cassette.jsonl"),
    "utf8",
  ).trimEnd().split("\n");
  const answer = lines.find((line) => line.includes('"tools":['))!;
  for (let i = 0; i < exchanges; i++) {
    const id = 1000 + i;
    lines.push(
      `{"type":"message","t":${
        100 + i
      },"dir":"c2s","session":"1","msg":{"jsonrpc":"2.0","id":${id},"method":"tools/list","params":{}}}`,
      answer.replace(/"id":\d+/, `"id":${id}`),
    );
  }
  fs.writeFileSync(file, lines.join("\n") + "\n");
  return file;
}

/** How many times the replay of `cassette` opened it for reading, and its answer. */
async function opensOf(cassette: string, dir: string): Promise<number> {
  const log = path.join(dir, `${path.basename(cassette)}.strace`);
  const result = await run(
    ["strace", "-f", "-qq", "-e", "trace=open,openat", "-o", log, ...CLI, "replay", "-q", cassette],
    { input: INITIALIZE, timeoutMs: 120_000 },
  );
  assert.equal(result.code, 0, result.stderr);
  assert.match(result.stdout, /"protocolVersion"/);
  return fs.readFileSync(log, "utf8").split("\n").filter((line) =>
    line.includes(`"${cassette}"`) && !/O_WRONLY|O_RDWR|O_CREAT/.test(line) && !/= -1 /.test(line)
  ).length;
}

test("replay opens a cassette once, whatever its format and size", async (t) => {
  if (!hasStrace) return skipTest(t, "strace is not installed");
  const dir = tempDir("mcp-cassette-one-open-");
  const small = path.join(dir, "small.jsonl");
  fs.copyFileSync(path.join(ROOT, "examples", "cassettes", "weather.cassette.jsonl"), small);
  const python = path.join(dir, "python.json");
  fs.copyFileSync(
    path.join(ROOT, "tests", "fixtures", "foreign", "python-mcp-cassette", "session.v3.mcp.json"),
    python,
  );
  const typescript = path.join(dir, "typescript.jsonl");
  fs.copyFileSync(
    path.join(
      ROOT,
      "tests",
      "fixtures",
      "foreign",
      "ts-mcp-cassette",
      "everything.stdio.cassette.jsonl",
    ),
    typescript,
  );
  const streamed = grown(path.join(dir, "streamed.jsonl"), 200);
  assert.ok(fs.statSync(streamed).size > 16 << 10 && fs.statSync(streamed).size < 1 << 20);
  for (
    const [name, file] of [["small", small], ["streamed", streamed], ["Python", python], [
      "TypeScript mcp-cassette",
      typescript,
    ]]
  ) {
    assert.equal(await opensOf(file, dir), 1, `${name}: ${file}`);
  }
  const large = grown(path.join(dir, "large.jsonl"), 2500);
  assert.ok(fs.statSync(large).size >= 1 << 20);
  // The stream that reads it, and the handle its frames are read back through.
  assert.equal(await opensOf(large, dir), 2, "frames on disk");
});
