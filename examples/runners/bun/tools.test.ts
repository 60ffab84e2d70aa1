/**
 * bun:test example: `bun test examples/runners/bun/`.
 * CI: MCP_CASSETTE_MODE=none, no network.
 */
import { expect, test } from "bun:test";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { expectAllPlayed, expectNeverCalled, withCassette } from "../../../src/testing/mod.ts";

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

test(
  "lists the tools",
  withCassette("lists the tools", { dir, server }, async (cassette) => {
    const client = new Client({ name: "example", version: "1.0.0" });
    await client.connect(
      new StdioClientTransport({
        command: cassette.command,
        args: cassette.args,
        stderr: "ignore",
      }),
    );
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toContain("get-sum");
    await client.close();
    // What the client did, from the replay's journal (finish() again after the body is a no-op):
    const played = await cassette.finish();
    expectNeverCalled(played, "get-sum");
    expectAllPlayed(played);
  }),
);
