/**
 * Ids come back exactly as the client wrote them, on stdio and HTTP, alone
 * and in batches: raw clients over a real pipe and a real socket, so nothing
 * between them and the replay reads the id as a number.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { connect } from "node:net";
import path from "node:path";
import { CLI, tempDir } from "../helpers.ts";
import { freePort, startBackground } from "../http/http_helpers.ts";
import { call, opening, recordEcho, replayLines } from "./echo.ts";

const RECORDED = [...opening("1"), call("2", "divide", { a: 1, b: 4 })];

async function cassette(): Promise<string> {
  const file = path.join(tempDir(), "ids.jsonl");
  await recordEcho(file, RECORDED);
  return file;
}

test("stdio: ids too long for a double, with a fraction, or in a batch come back as written", async () => {
  const file = await cassette();
  const result = await replayLines(file, [
    ...opening("12345678901234567890"),
    `[${call("7.0", "divide", { a: 1, b: 4 })}]`,
  ]);
  assert.equal(result.code, 0, result.stderr);
  const lines = result.stdout.trim().split("\n");
  assert.match(lines[0], /"id": 12345678901234567890,/);
  assert.match(lines[1], /^\[\{"jsonrpc": "2.0", "id": 7\.0,/);
});

/** One HTTP/1.1 POST over a raw socket; resolves with the whole reply's text. */
function rawPost(
  port: number,
  body: string,
  headers: Record<string, string> = {},
): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1");
    let reply = "";
    socket.setEncoding("utf8").on("data", (chunk) => (reply += chunk));
    socket.on("error", reject).on("close", () => resolve(reply));
    const head = [
      "POST /mcp HTTP/1.1",
      `Host: 127.0.0.1:${port}`,
      "Content-Type: application/json",
      "Accept: application/json, text/event-stream",
      `Content-Length: ${Buffer.byteLength(body)}`,
      "Connection: close",
      ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
    ];
    // Written, not ended: the server closes the connection once it has answered (Connection: close).
    socket.write(head.join("\r\n") + "\r\n\r\n" + body);
  });
}

test("HTTP: a raw socket's ids come back as written", async () => {
  const file = await cassette();
  const port = await freePort();
  const replay = await startBackground(
    [...CLI, "replay", file, "--listen", `127.0.0.1:${port}`],
    /(http:\/\/127\.0\.0\.1:\d+\/\S*)/,
  );
  try {
    const opened = await rawPost(port, opening("12345678901234567890")[0]);
    assert.match(opened, /"id": ?12345678901234567890[,}]/, opened);
    const session = /mcp-session-id: (\S+)/i.exec(opened)?.[1];
    const headers: Record<string, string> = session ? { "Mcp-Session-Id": session } : {};
    headers["MCP-Protocol-Version"] = "2025-06-18";
    await rawPost(port, opening()[1], headers);
    const alone = await rawPost(port, call("7.0", "divide", { a: 1, b: 4 }), headers);
    assert.match(alone, /"id": ?7\.0[,}]/, alone);
  } finally {
    await replay.stop();
  }
});

test("HTTP, 2025-03-26: ids in a batch over a raw socket come back as written", async () => {
  const file = path.join(tempDir(), "batch.jsonl");
  await recordEcho(file, [...opening("1", "2025-03-26"), call("2", "divide", { a: 1, b: 4 })]);
  const port = await freePort();
  const replay = await startBackground(
    [...CLI, "replay", file, "--listen", `127.0.0.1:${port}`],
    /(http:\/\/127\.0\.0\.1:\d+\/\S*)/,
  );
  try {
    const opened = await rawPost(port, opening("1", "2025-03-26")[0]);
    const session = /mcp-session-id: (\S+)/i.exec(opened)?.[1];
    const headers: Record<string, string> = session ? { "Mcp-Session-Id": session } : {};
    await rawPost(port, opening()[1], headers);
    const batch = await rawPost(
      port,
      `[${
        call("12345678901234567890", "divide", { a: 1, b: 4 })
      },{"jsonrpc":"2.0","id":5.50,"method":"ping"}]`,
      headers,
    );
    assert.match(batch, /"id": ?12345678901234567890[,}]/, batch);
    assert.match(batch, /"id": ?5\.50[,}]/, batch);
  } finally {
    await replay.stop();
  }
});

test("HTTP: a request whose id text parsing loses is replayed as any other: its fault and its recorded exchange apply", async () => {
  const file = await cassette();
  const faults = path.join(tempDir(), "faults.json");
  writeFileSync(
    faults,
    JSON.stringify([{
      match: { tool: "divide" },
      fault: { kind: "http-status", status: 503, body: "down" },
    }]),
  );
  const port = await freePort();
  const replay = await startBackground(
    [...CLI, "replay", file, "--listen", `127.0.0.1:${port}`, "--faults", faults],
    /(http:\/\/127\.0\.0\.1:\d+\/\S*)/,
  );
  try {
    const opened = await rawPost(port, opening()[0]);
    const session = /mcp-session-id: (\S+)/i.exec(opened)?.[1];
    const headers: Record<string, string> = session ? { "Mcp-Session-Id": session } : {};
    headers["MCP-Protocol-Version"] = "2025-06-18";
    await rawPost(port, opening()[1], headers);
    // 7.0 parses as 7: the answer must carry the text, and be what 7 would get.
    for (const id of ["7", "7.0"]) {
      const reply = await rawPost(port, call(id, "divide", { a: 1, b: 4 }), headers);
      assert.match(reply, /^HTTP\/1\.1 503 /, `id ${id}: ${reply}`);
      assert.match(reply, /\r\n\r\ndown$/, `id ${id}: ${reply}`);
    }
  } finally {
    await replay.stop();
  }
});
