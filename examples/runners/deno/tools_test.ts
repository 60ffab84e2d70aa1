/**
 * Deno.test example: `deno test -A examples/runners/deno/`.
 * CI: MCP_CASSETTE_MODE=none, no network.
 */
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { expectAllPlayed, expectCalled, useDenoCassette } from "../../../src/testing/mod.ts";

const dir = fileURLToPath(new URL("./cassettes", import.meta.url));
const server = [
  "node",
  fileURLToPath(
    new URL(
      "../../../node_modules/@modelcontextprotocol/server-everything/dist/index.js",
      import.meta.url,
    ),
  ),
  "stdio",
];

Deno.test("echoes a message", async (t) => {
  const cassette = await useDenoCassette(t, { dir, server });
  const client = new Client({ name: "example", version: "1.0.0" });
  await client.connect(
    new StdioClientTransport({ command: cassette.command, args: cassette.args, stderr: "ignore" }),
  );
  const result = await client.callTool({ name: "echo", arguments: { message: "hi" } });
  assert.deepEqual(result.content, [{ type: "text", text: "Echo: hi" }]);
  await client.close();
  const played = await cassette.finish(); // throws on replay misses
  // What the client did, from the replay's journal:
  expectCalled(played, "echo", { times: 1, with: { message: "hi" } });
  expectAllPlayed(played);
});
