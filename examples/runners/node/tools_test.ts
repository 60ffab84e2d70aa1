/**
 * node:test example. Runs under `deno test -A` and `bun test` (node 20
 * cannot load TypeScript). CI: MCP_CASSETTE_MODE=none, no network.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { expectAllPlayed, expectCalled, useCassette } from "../../../src/testing/mod.ts";

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

test("adds two numbers", async (t) => {
  const cassette = await useCassette(t, { dir, server });
  const client = new Client({ name: "example", version: "1.0.0" });
  await client.connect(
    new StdioClientTransport({ command: cassette.command, args: cassette.args, stderr: "ignore" }),
  );
  const result = await client.callTool({ name: "get-sum", arguments: { a: 2, b: 40 } });
  assert.deepEqual(result.content, [{ type: "text", text: "The sum of 2 and 40 is 42." }]);
  await client.close();
  const played = await cassette.finish(); // throws on replay misses
  // What the client did, from the replay's journal:
  expectCalled(played, "get-sum", { times: 1, with: { a: 2, b: 40 } });
  expectAllPlayed(played);
});
