/**
 * One pointer form: what `redact --scan` prints (`/msg/…`, into the
 * cassette line, as lint prints it too) is what `--redact` takes; a pointer
 * at a protocol field is refused in that form as in the message-relative
 * one, `/msg/id` like `/msg/jsonrpc`. Through the real CLI.
 */
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { CLI, run, tempDir } from "../helpers.ts";

const dir = tempDir("mcp-cassette-scan-pointer-");
after(() => rmSync(dir, { recursive: true, force: true }));

const EMAIL = "bob.stone@example.org";
const LINES = [
  {
    format: "mcp-cassette",
    version: 1,
    recorder: "mcp-cassette/0.1.0",
    created: "2026-01-01T00:00:00.000Z",
    transport: "stdio",
    server: { command: ["node", "server.js"] },
  },
  {
    type: "message",
    t: 1,
    dir: "c2s",
    msg: { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "whoami", arguments: {} } },
  },
  {
    type: "message",
    t: 2,
    dir: "s2c",
    msg: {
      jsonrpc: "2.0",
      id: 1,
      result: { content: [{ type: "text", text: `you are ${EMAIL}` }] },
    },
  },
];

test("redact: the pointer --scan prints is one --redact accepts, and it redacts", async () => {
  const cassette = path.join(dir, "s.cassette.jsonl");
  writeFileSync(cassette, LINES.map((line) => JSON.stringify(line)).join("\n") + "\n");
  const scanned = await run([...CLI, "redact", cassette, "--scan"]);
  assert.equal(scanned.code, 4, scanned.stderr);
  const [, pointer] = scanned.stdout.trim().split(" ");
  assert.equal(pointer, "/msg/result/content/0/text");

  const redacted = await run([...CLI, "redact", cassette, "--no-detectors", "--redact", pointer]);
  assert.equal(redacted.code, 0, redacted.stderr);
  const text = readFileSync(cassette, "utf8");
  assert.ok(!text.includes(EMAIL), text);
  assert.match(text, /"text":"\[REDACTED:pointer:[0-9a-f]{16}\]"/);
  const again = await run([...CLI, "redact", cassette, "--scan"]);
  assert.equal(again.code, 0, again.stdout);
});

test("redact: a pointer at a protocol field is refused in both forms (/msg/id as /msg/jsonrpc)", async () => {
  const cassette = path.join(dir, "p.cassette.jsonl");
  writeFileSync(cassette, LINES.map((line) => JSON.stringify(line)).join("\n") + "\n");
  const before = readFileSync(cassette, "utf8");
  for (const [pointer, field] of [["/msg/id", "id"], ["/msg/jsonrpc", "jsonrpc"], ["/id", "id"]]) {
    const result = await run([...CLI, "redact", cassette, "--redact", pointer]);
    assert.equal(result.code, 2, `${pointer}: ${result.stderr}`);
    assert.match(
      result.stderr,
      new RegExp(
        `^mcp-cassette redact: .*${pointer} points at the protocol field "${field}", which is never redacted\\n$`,
      ),
    );
  }
  assert.equal(readFileSync(cassette, "utf8"), before);
});
