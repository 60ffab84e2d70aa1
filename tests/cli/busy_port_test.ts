/**
 * A port another program holds is the user's choice, not our bug: replay
 * --listen and record --url --listen on a really busy socket say so in one
 * line and exit 2, with no stack trace, and leave no listener behind; the
 * recorder leaves no cassette and no side file either.
 */
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { createServer } from "node:net";
import type { AddressInfo, Server } from "node:net";
import { readdirSync, rmSync } from "node:fs";
import path from "node:path";
import { CLI, ROOT, run, tempDir } from "../helpers.ts";

const work = tempDir("mcp-cassette-busy-");
after(() => rmSync(work, { recursive: true, force: true }));

function holdPort(): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = createServer((socket) => socket.destroy());
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve(server));
  });
}

const CASSETTE = path.join(ROOT, "examples", "cassettes", "weather.cassette.jsonl");

test("replay --listen and record --url --listen on a busy port: one line, exit 2", async () => {
  const busy = await holdPort();
  try {
    const port = (busy.address() as AddressInfo).port;
    const listen = `127.0.0.1:${port}`;
    const commands = [
      ["replay", "--listen", listen, CASSETTE],
      [
        "record",
        "--url",
        "http://127.0.0.1:9/mcp",
        "--listen",
        listen,
        "-o",
        path.join(work, "r.cassette.jsonl"),
      ],
    ];
    for (const args of commands) {
      const result = await run([...CLI, ...args]);
      assert.equal(result.code, 2, `${args[0]}: ${result.stderr}`);
      assert.equal(
        result.stderr,
        `mcp-cassette ${args[0]}: --listen ${listen}: the port is in use by another program; ` +
          "choose another port, or 0 for a free one\n",
      );
    }
    assert.deepEqual(readdirSync(work), [], "what the refused recorder left behind");
  } finally {
    await new Promise((resolve) => busy.close(resolve));
  }
});
