/**
 * The modern-era (2026-07-28) reference server of the interop suite, built
 * with the official TypeScript SDK v2 (`@modelcontextprotocol/server`). It
 * offers what the shared session (session.json) asks for — the tools `echo`
 * and `get-sum`, the resource `demo://resource/static/document/architecture.md`,
 * the prompts `simple-prompt` and `args-prompt` — because server-everything,
 * which the legacy golden cassette comes from, speaks only the legacy era.
 * Both the SDK's stdio entry (`serveStdio`) and its HTTP entry
 * (`createMcpHandler`) pick the era from the opening request, so the same
 * definitions serve 2026-07-28 and 2025-11-25 clients.
 *
 * Usage: deno run -A --no-check tests/interop/ts_server.ts (--stdio | --http PORT)
 * Over HTTP it prints "listening on http://127.0.0.1:PORT/mcp" on stderr.
 */
import { createMcpHandler, McpServer } from "@modelcontextprotocol/server";
import { serveStdio } from "@modelcontextprotocol/server/stdio";
import { z } from "zod";
import process from "node:process";

const ARCHITECTURE = "demo://resource/static/document/architecture.md";

function build(): McpServer {
  const server = new McpServer({ name: "interop-ts-v2-server", version: "1.0.0" }, {
    supportedProtocolVersions: ["2026-07-28", "2025-11-25"],
  });
  server.registerTool("echo", {
    title: "Echo Tool",
    description: "Echoes back the input string",
    inputSchema: z.object({ message: z.string().describe("Message to echo") }),
  }, ({ message }) => ({ content: [{ type: "text", text: `Echo: ${message}` }] }));
  server.registerTool("get-sum", {
    title: "Get Sum Tool",
    description: "Returns the sum of two numbers",
    inputSchema: z.object({
      a: z.number().describe("First number"),
      b: z.number().describe("Second number"),
    }),
  }, ({ a, b }) => ({
    content: [{ type: "text", text: `The sum of ${a} and ${b} is ${a + b}.` }],
    structuredContent: { sum: a + b },
  }));
  server.registerResource("architecture.md", ARCHITECTURE, {
    mimeType: "text/markdown",
    description: "A static document",
  }, (uri) => ({
    contents: [{
      uri: uri.href,
      mimeType: "text/markdown",
      text: "# Architecture\n\nRecorded once, replayed to every SDK.\n",
    }],
  }));
  server.registerPrompt("simple-prompt", {
    title: "Simple Prompt",
    description: "A prompt with no arguments",
  }, () => ({
    messages: [{
      role: "user",
      content: { type: "text", text: "This is a simple prompt without arguments." },
    }],
  }));
  server.registerPrompt("args-prompt", {
    title: "Arguments Prompt",
    description: "A prompt with two arguments, one required and one optional",
    argsSchema: z.object({
      city: z.string().describe("Name of the city"),
      state: z.string().optional().describe("Name of the state"),
    }),
  }, ({ city, state }) => ({
    messages: [{
      role: "user",
      content: { type: "text", text: `What's weather in ${city}${state ? `, ${state}` : ""}?` },
    }],
  }));
  return server;
}

const args = process.argv.slice(2);
if (args[0] === "--stdio") {
  serveStdio(build);
} else if (args[0] === "--http") {
  const handler = createMcpHandler(build);
  // Deno's server: the suite runs this file with Deno, and the handler is a
  // plain Request -> Response function.
  const deno = (globalThis as unknown as {
    Deno: { serve: (o: unknown, h: (r: Request) => Promise<Response>) => unknown };
  }).Deno;
  deno.serve({
    hostname: "127.0.0.1",
    port: Number(args[1] ?? "0"),
    onListen: ({ port }: { port: number }) =>
      process.stderr.write(`listening on http://127.0.0.1:${port}/mcp\n`),
  }, (request: Request) => handler.fetch(request));
} else {
  process.stderr.write("usage: ts_server.ts (--stdio | --http PORT)\n");
  process.exit(2);
}
