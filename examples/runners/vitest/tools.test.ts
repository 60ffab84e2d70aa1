/**
 * vitest example: `bun --bun node_modules/.bin/vitest run --root examples/runners/vitest`
 * (run on Bun, which runs the TypeScript CLI the helper restarts; from the npm
 * package, plain `npx vitest run` under Node works the same way).
 * CI: MCP_CASSETTE_MODE=none, no network.
 */
import { expect, test } from "vitest";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { expectCalled, expectCalledInOrder, useVitestCassette } from "../../../src/testing/mod.ts";

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

test("adds two numbers", async (context) => {
  const cassette = await useVitestCassette(context, { dir, server });
  const client = new Client({ name: "example", version: "1.0.0" });
  await client.connect(
    new StdioClientTransport({ command: cassette.command, args: cassette.args, stderr: "ignore" }),
  );
  const result = await client.callTool({ name: "get-sum", arguments: { a: 2, b: 40 } });
  expect(result.content).toEqual([{ type: "text", text: "The sum of 2 and 40 is 42." }]);
  await client.close();
  const played = await cassette.finish(); // throws on replay misses
  // What the client did, from the replay's journal:
  expectCalled(played, "get-sum", { with: { b: 40 } });
  expectCalledInOrder(played, [{ tool: "get-sum", with: { a: 2 } }]);
});
