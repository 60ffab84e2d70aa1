/**
 * The GET that opens a session's stream, through the byte-level recorder,
 * reaches the upstream before the POST the client sent after it.
 *
 * The official SDK's server sends a request it makes on its own (its
 * `createMessage` or `elicitInput` called without a related request, as the
 * conformance suite's sampling and elicitation tools do) on the session's
 * GET stream, and drops it when that stream is not open yet. The SDK client
 * opens the stream when `notifications/initialized` is answered and sends
 * its next POST at once, on another connection. When the recorder handed
 * the GET to the fetch-based path (two more hops: a loopback connection and
 * `fetch`), the tools/call overtook it about one time in three, the
 * sampling request was dropped and the call never ended. Here the upstream
 * says so (an error result) rather than hang, and every session of many
 * must see the GET first and get the sampling answer back.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import http from "node:http";
import { randomUUID } from "node:crypto";
import path from "node:path";
import { readFileSync } from "node:fs";
import { z } from "zod";
import { listenLocal, recordInProcess } from "./http_helpers.ts";
import { tempDir } from "../helpers.ts";
import {
  Client,
  CreateMessageRequestSchema,
  McpServer,
  StreamableHTTPClientTransport,
  StreamableHTTPServerTransport,
} from "../sdk.ts";

const SESSIONS = 12;

interface Upstream {
  url: string;
  close(): Promise<void>;
}

/** One McpServer per session; its tool asks the client's LLM on the session's GET stream. */
function sessionServer(streamOpen: () => boolean): McpServer {
  const server = new McpServer({ name: "get-stream-upstream", version: "1.0.0" });
  server.registerTool("ask", {
    description: "Asks the client's LLM",
    inputSchema: { prompt: z.string() },
  }, async ({ prompt }) => {
    if (!streamOpen()) {
      // What the SDK would drop: the call would never end.
      return {
        content: [{ type: "text", text: "the tools/call arrived before the GET stream" }],
        isError: true,
      };
    }
    // No related request: the SDK sends it on the session's GET stream.
    const answer = await server.server.createMessage({
      messages: [{ role: "user", content: { type: "text", text: prompt } }],
      maxTokens: 10,
    });
    const content = answer.content as { type: string; text?: string };
    return { content: [{ type: "text", text: `LLM said: ${content.text}` }] };
  });
  return server;
}

async function startUpstream(): Promise<Upstream> {
  const sessions = new Map<string, { transport: StreamableHTTPServerTransport; get: boolean }>();
  const server = http.createServer(async (req, res) => {
    const id = req.headers["mcp-session-id"];
    if (typeof id === "string") {
      const session = sessions.get(id);
      if (!session) return res.writeHead(404).end();
      if (req.method === "GET") session.get = true;
      return await session.transport.handleRequest(req, res);
    }
    const entry = { get: false } as { transport: StreamableHTTPServerTransport; get: boolean };
    entry.transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (sid) => void sessions.set(sid, entry),
    });
    await sessionServer(() => entry.get).connect(entry.transport);
    await entry.transport.handleRequest(req, res);
  });
  const local = await listenLocal(server);
  return {
    url: local.url,
    close: async () => {
      for (const { transport } of sessions.values()) await transport.close();
      await local.close();
    },
  };
}

/** One SDK client session: connect (the GET stream opens), then the call at once. */
async function askThrough(url: string, n: number): Promise<string> {
  const client = new Client({ name: "t", version: "1" }, { capabilities: { sampling: {} } });
  client.setRequestHandler(CreateMessageRequestSchema, () => ({
    model: "test-model",
    role: "assistant" as const,
    content: { type: "text" as const, text: `answer ${n}` },
  }));
  const transport = new StreamableHTTPClientTransport(new URL(url));
  await client.connect(transport);
  try {
    const result = await client.callTool({ name: "ask", arguments: { prompt: `q${n}` } });
    return (result.content as { text: string }[])[0].text;
  } finally {
    await transport.terminateSession().catch(() => {});
    await client.close();
  }
}

test("record --url, byte-level: the GET stream reaches the upstream before the tools/call sent after it, and the sampling request on it is answered", async () => {
  const upstream = await startUpstream();
  const dir = tempDir();
  const output = path.join(dir, "get-stream.cassette.jsonl");
  const recorder = await recordInProcess({ url: upstream.url, output, engine: "bytes" });
  try {
    const answers: string[] = [];
    for (let n = 0; n < SESSIONS; n++) answers.push(await askThrough(recorder.url, n));
    assert.deepEqual(answers, answers.map((_, n) => `LLM said: answer ${n}`));
  } finally {
    assert.equal(await recorder.stop(), 0);
    await upstream.close();
  }
  // The sampling request and its answer are in the cassette, on the GET stream and its POST.
  const lines = readFileSync(output, "utf8").trim().split("\n").map((l) => JSON.parse(l));
  const asked = lines.filter((l) => l.msg?.method === "sampling/createMessage");
  assert.equal(asked.length, SESSIONS);
  assert.ok(asked.every((l) => l.sse?.stream === "get"), JSON.stringify(asked[0]));
  assert.equal(lines.filter((l) => l.msg?.result?.model === "test-model").length, SESSIONS);
});
