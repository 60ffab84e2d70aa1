/**
 * Which HTTP recorder `record --url` runs (src/record/http.ts): the
 * byte-level one by default, the fetch-based one with
 * `MCP_CASSETTE_HTTP_RECORDER=fetch`, and any other value refused as bad
 * input before a cassette is written.
 *
 * Told apart by what the upstream receives: the byte-level path sends the
 * client's header names on as they came, `fetch` sends them in lower case.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import http from "node:http";
import { createConnection } from "node:net";
import { existsSync } from "node:fs";
import path from "node:path";
import { listenLocal, startBackground, URL_LINE } from "./http_helpers.ts";
import { CLI, initializeRequest, run, tempDir } from "../helpers.ts";

const BODY = JSON.stringify(initializeRequest());

/** An upstream that answers initialize and keeps the names of the header fields it got. */
async function startUpstream() {
  const names: string[][] = [];
  const server = http.createServer((req, res) => {
    names.push(req.rawHeaders.filter((_, i) => i % 2 === 0));
    req.resume();
    req.on("end", () => {
      res.writeHead(200, { "content-type": "application/json", "mcp-session-id": "s1" });
      res.end(JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        result: {
          protocolVersion: "2025-11-25",
          capabilities: {},
          serverInfo: { name: "engine-choice", version: "1.0.0" },
        },
      }));
    });
  });
  return { ...await listenLocal(server), names };
}

/** Sends one POST with a mixed-case header through `url`, byte for byte; resolves with the status line. */
function postMixedCase(url: string): Promise<string> {
  const { hostname, port, pathname } = new URL(url);
  const request = `POST ${pathname} HTTP/1.1\r\nHost: ${hostname}:${port}\r\n` +
    `Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\n` +
    `X-Case-Probe: 1\r\nContent-Length: ${BODY.length}\r\nConnection: close\r\n\r\n${BODY}`;
  return new Promise((resolve, reject) => {
    const socket = createConnection({ host: hostname, port: Number(port) }, () => {
      socket.write(request);
    });
    let text = "";
    socket.setEncoding("latin1").on("data", (chunk) => (text += chunk));
    socket.on("end", () => resolve(text.split("\r\n")[0]));
    socket.on("error", reject);
  });
}

/** The name the probe header reached the upstream with, through `record --url` run with `value`. */
async function probeNameWith(value: string): Promise<string | undefined> {
  const upstream = await startUpstream();
  const output = path.join(tempDir(), "engine.cassette.jsonl");
  const recorder = await startBackground(
    [...CLI, "record", "-o", output, "--url", upstream.url],
    URL_LINE,
    { env: { MCP_CASSETTE_HTTP_RECORDER: value } },
  );
  try {
    assert.equal(await postMixedCase(recorder.found), "HTTP/1.1 200 OK");
  } finally {
    assert.equal(await recorder.stop(), 0, recorder.output());
    await upstream.close();
  }
  assert.equal(upstream.names.length, 1);
  return upstream.names[0].find((name) => name.toLowerCase() === "x-case-probe");
}

test("record --url: the byte-level recorder by default (an empty MCP_CASSETTE_HTTP_RECORDER too)", async () => {
  assert.equal(await probeNameWith(""), "X-Case-Probe");
});

test("record --url: MCP_CASSETTE_HTTP_RECORDER=bytes is the byte-level recorder", async () => {
  assert.equal(await probeNameWith("bytes"), "X-Case-Probe");
});

test("record --url: MCP_CASSETTE_HTTP_RECORDER=fetch is the fetch-based recorder", async () => {
  assert.equal(await probeNameWith("fetch"), "x-case-probe");
});

test("record --url: another MCP_CASSETTE_HTTP_RECORDER value is bad input (exit 2, one line naming it), and no cassette is written", async () => {
  const output = path.join(tempDir(), "refused.cassette.jsonl");
  const result = await run(
    [...CLI, "record", "-o", output, "--url", "http://127.0.0.1:9/mcp"],
    { env: { MCP_CASSETTE_HTTP_RECORDER: "byte" } },
  );
  assert.equal(result.code, 2, result.stderr);
  const lines = result.stderr.trim().split("\n");
  assert.equal(lines.length, 1, result.stderr);
  assert.match(lines[0], /MCP_CASSETTE_HTTP_RECORDER=byte/);
  assert.match(lines[0], /bytes or fetch/);
  assert.ok(!existsSync(output), "a cassette was written");
});
