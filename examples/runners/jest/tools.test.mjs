/**
 * jest example, plain ESM JavaScript against the npm build (see jest.config.mjs):
 *
 *   deno run -A scripts/build_npm.ts
 *   MCP_CASSETTE_MODE=none node --experimental-vm-modules node_modules/jest/bin/jest.js \
 *     --config examples/runners/jest/jest.config.mjs
 *
 * Under Node the helper restarts the package's own `cli.js` to record or replay.
 * CI: MCP_CASSETTE_MODE=none, no network.
 */
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { expectCalled, useJestCassette } from "@mcp-cassette/mcp-cassette/testing";

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

test("adds two numbers", async () => {
  // The cassette is named after the test: cassettes/adds-two-numbers.cassette.jsonl.
  const cassette = await useJestCassette({ dir, server });
  const client = new Client({ name: "example", version: "1.0.0" });
  try {
    await client.connect(
      new StdioClientTransport({
        command: cassette.command,
        args: cassette.args,
        stderr: "ignore",
      }),
    );
    const result = await client.callTool({ name: "get-sum", arguments: { a: 2, b: 40 } });
    expect(result.content).toEqual([{ type: "text", text: "The sum of 2 and 40 is 42." }]);
  } finally {
    // Stops the server process even when the test fails: jest waits for open handles.
    await client.close();
  }
  const played = await cassette.finish(); // throws on replay misses
  // What the client did, from the replay's journal:
  expectCalled(played, "get-sum", { times: 1, with: { a: 2, b: 40 } });
});
