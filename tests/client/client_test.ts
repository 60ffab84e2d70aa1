import { test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import {
  initialize,
  listAll,
  McpConnection,
  RequestTimeoutError,
  splitCommandLine,
  StdioClientTransport,
} from "../../src/client/mod.ts";
import { ServerUnreachableError, UsageError } from "../../src/errors/errors.ts";
import { EVERYTHING, fixture, ROOT } from "../verify/_helpers.ts";
import { DENO } from "../helpers.ts";

test("splitCommandLine splits like a shell: quotes, backslashes, no expansion", () => {
  assert.deepEqual(splitCommandLine(`node "my server.js" --name 'a b' x\\ y`), [
    "node",
    "my server.js",
    "--name",
    "a b",
    "x y",
  ]);
  assert.deepEqual(splitCommandLine(`  a   ''  "say \\"hi\\"" '$HOME' `), [
    "a",
    "",
    'say "hi"',
    "$HOME",
  ]);
  assert.deepEqual(splitCommandLine(`a"b c"d`), ["ab cd"]);
  assert.throws(() => splitCommandLine(`a "b`), UsageError);
  assert.throws(() => splitCommandLine(`a \\`), UsageError);
});

test("the client handshakes with the reference server and lists its tools", async () => {
  const connection = new McpConnection(new StdioClientTransport(EVERYTHING));
  try {
    const hello = await initialize(connection);
    assert.equal(hello.protocolVersion, "2025-11-25");
    assert.equal(hello.serverInfo.name, "mcp-servers/everything");
    const tools = await listAll(connection, "tools/list", "tools");
    assert.ok(tools.length > 0);
    assert.ok(tools.some((tool) => tool.name === "echo"));
    const echoed = await connection.request("tools/call", {
      name: "echo",
      arguments: { message: "hi" },
    });
    assert.match(JSON.stringify(echoed), /hi/);
  } finally {
    await connection.close();
  }
});

test("listAll follows nextCursor across pages", async () => {
  const server = [
    DENO,
    "run",
    "-A",
    "--no-check",
    join(ROOT, "tests/fixtures/check/paged_server.ts"),
  ];
  const pages: string[] = [];
  const connection = new McpConnection(new StdioClientTransport(server), {
    observe: (dir, frame) => {
      if (dir === "c2s" && JSON.stringify(frame).includes('"tools/list"')) {
        pages.push(JSON.stringify(frame));
      }
    },
  });
  try {
    await initialize(connection);
    const tools = await listAll(connection, "tools/list", "tools");
    assert.deepEqual(tools.map((tool) => tool.name), [
      "tool_1",
      "tool_2",
      "tool_3",
      "tool_4",
      "tool_5",
      "tool_6",
      "tool_7",
    ]);
    assert.equal(pages.length, 3);
  } finally {
    await connection.close();
  }
});

test("a server command that cannot start is ServerUnreachableError with exit code 7", async () => {
  const connection = new McpConnection(
    new StdioClientTransport(["/nonexistent/mcp-server-binary"]),
  );
  await assert.rejects(initialize(connection), (error: Error) => {
    assert.ok(error instanceof ServerUnreachableError);
    assert.equal(error.exitCode, 7);
    assert.match(error.message, /Cannot start the server command/);
    assert.doesNotMatch(error.message, /\n/);
    return true;
  });
  await connection.close();
});

test("a request that gets no answer times out; the connection stays usable", async () => {
  const connection = new McpConnection(new StdioClientTransport(fixture("hang")));
  try {
    await initialize(connection);
    await assert.rejects(
      connection.call("tools/call", { name: "stats", arguments: {} }, { timeoutMs: 300 }),
      RequestTimeoutError,
    );
    const echoed = await connection.request("tools/call", {
      name: "echo",
      arguments: { text: "still here" },
    });
    assert.match(JSON.stringify(echoed), /still here/);
  } finally {
    await connection.close();
  }
});

test("a server that exits mid-session rejects what waits, naming the exit code", async () => {
  const connection = new McpConnection(new StdioClientTransport(fixture("crash")));
  try {
    await initialize(connection);
    await assert.rejects(
      connection.call("tools/call", { name: "stats", arguments: {} }),
      /exited with code 3/,
    );
    assert.equal(connection.isEnded, true);
  } finally {
    await connection.close();
  }
});
