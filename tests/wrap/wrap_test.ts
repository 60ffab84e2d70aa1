/**
 * `wrap` end to end, for each config shape: a commented JSONC config is
 * wrapped for one server; the rewritten entry is started exactly as a
 * client starts it (parsed from the file, from another folder, with
 * `PATH=/usr/bin:/bin`) and driven by the official SDK client; the cassette
 * lands in DIR; `--replay` serves it back; `--unwrap` restores the bytes.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import {
  accessSync,
  constants,
  existsSync,
  mkdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import path from "node:path";
import process from "node:process";
import { findNodeAtLocation, parse, parseTree } from "jsonc-parser";
import { Client, StdioClientTransport } from "../sdk.ts";
import { CLI, NODE, ROOT, run, tempDir } from "../helpers.ts";

const EVERYTHING_JS = path.join(
  ROOT,
  "node_modules/@modelcontextprotocol/server-everything/dist/index.js",
);

/** Node by absolute path: the wrapped server must start with a bare PATH too. */
function absoluteNode(): string {
  if (path.isAbsolute(NODE)) return NODE;
  for (const dir of (process.env.PATH ?? "").split(path.delimiter)) {
    const candidate = path.join(dir, NODE);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // Not in this folder.
    }
  }
  throw new Error("node is not on PATH");
}

const SERVER = JSON.stringify([EVERYTHING_JS, "stdio"]);

/** The two shapes, each with comments, trailing commas and its own indentation. */
const SHAPES: { name: string; key: string; pick: string[]; text: string }[] = [
  {
    name: "mcpServers (Claude Desktop, Cursor, .mcp.json, Windsurf)",
    key: "mcpServers",
    pick: ["--server", "everything"],
    text: `{
  // Claude Desktop: the reference server, and two more that must stay as they are
  "mcpServers": {
    "other": { "command": "python3", "args": ["-m", "other_server"], }, // untouched
    "everything": {
      "command": ${JSON.stringify(absoluteNode())},
      "args": ${SERVER}, /* the reference server */
      "env": { "LOG": "1" },
    },
    "remote": { "url": "https://example.com/mcp" },
  },
  "globalShortcut": "Ctrl+Space",
}
`,
  },
  {
    name: "servers with type (VS Code .vscode/mcp.json)",
    key: "servers",
    // Its one stdio server is all there is to wrap; the HTTP one is left alone.
    pick: ["--all"],
    text: `{
\t// VS Code: tabs, an input, and a server over HTTP
\t"inputs": [{ "type": "promptString", "id": "token", "password": true }],
\t"servers": {
\t\t"everything": {
\t\t\t"type": "stdio",
\t\t\t"command": ${JSON.stringify(absoluteNode())},
\t\t\t"args": ${SERVER},
\t\t},
\t\t"remote": { "type": "http", "url": "https://example.com/mcp", },
\t},
}
`,
  },
];

/** The text around the `command` and `args` values, which are all that wrap may change. */
function around(text: string, key: string): string[] {
  const tree = parseTree(text)!;
  const command = findNodeAtLocation(tree, [key, "everything", "command"])!;
  const args = findNodeAtLocation(tree, [key, "everything", "args"])!;
  return [
    text.slice(0, command.offset),
    text.slice(command.offset + command.length, args.offset),
    text.slice(args.offset + args.length),
  ];
}

/** Starts the entry as a client does and makes the same few calls; returns what it got. */
async function drive(config: string, key: string, cwd: string): Promise<unknown> {
  const entry = parse(readFileSync(config, "utf8"))[key].everything;
  const client = new Client({ name: "wrap-test", version: "1.0.0" });
  await client.connect(
    new StdioClientTransport({
      command: entry.command,
      args: entry.args,
      cwd,
      env: { PATH: "/usr/bin:/bin" },
      stderr: "ignore",
    }),
  );
  try {
    return {
      server: client.getServerVersion(),
      echo: await client.callTool({ name: "echo", arguments: { message: "wrapped" } }),
      sum: await client.callTool({ name: "get-sum", arguments: { a: 1, b: 2 } }),
    };
  } finally {
    await client.close();
  }
}

for (const shape of SHAPES) {
  test(`wrap ${shape.name}: record, replay and unwrap to the original bytes`, async () => {
    const dir = tempDir();
    try {
      const config = path.join(dir, "config.json");
      const cassettes = path.join(dir, "cassettes");
      const elsewhere = path.join(dir, "elsewhere");
      mkdirSync(elsewhere);
      writeFileSync(config, shape.text);

      const wrapped = await run([
        ...CLI,
        "wrap",
        config,
        "--server",
        "everything",
        "--record",
        cassettes,
      ]);
      assert.equal(wrapped.code, 0, wrapped.stderr);
      const text = readFileSync(config, "utf8");
      assert.notEqual(text, shape.text);
      assert.deepEqual(around(text, shape.key), around(shape.text, shape.key));
      const entry = parse(text)[shape.key].everything;
      assert.ok(path.isAbsolute(entry.command), entry.command);
      const cassette = path.join(cassettes, "everything.cassette.jsonl");
      assert.deepEqual(
        entry.args.slice(-7),
        ["record", "-o", cassette, "--", absoluteNode(), EVERYTHING_JS, "stdio"],
      );

      const live = await drive(config, shape.key, elsewhere);
      assert.ok(existsSync(cassette), "the cassette is in DIR");
      assert.match(readFileSync(cassette, "utf8"), /"message":"wrapped"/);

      const unwrapped = await run([...CLI, "wrap", config, "--unwrap"]);
      assert.equal(unwrapped.code, 0, unwrapped.stderr);
      assert.equal(readFileSync(config, "utf8"), shape.text);

      const replaying = await run([
        ...CLI,
        "wrap",
        config,
        "--server",
        "everything",
        "--server",
        "remote",
        "--replay",
        cassettes,
      ]);
      assert.equal(replaying.code, 0, replaying.stderr);
      assert.match(
        replaying.stderr,
        new RegExp(
          "remote: left alone, it is reached at a URL; replay it with mcp-cassette replay " +
            `${path.join(cassettes, "remote.cassette.jsonl")} --listen 127\\.0\\.0\\.1:PORT`,
        ),
      );
      const replayEntry = parse(readFileSync(config, "utf8"))[shape.key].everything;
      assert.deepEqual(replayEntry.args.slice(-2), ["replay", cassette]);
      assert.deepEqual(await drive(config, shape.key, elsewhere), live);

      assert.equal((await run([...CLI, "wrap", config, "--unwrap"])).code, 0);
      assert.deepEqual(readFileSync(config), Buffer.from(shape.text));
      assert.equal(existsSync(config + ".mcp-cassette-backup"), false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
}

test("wrap: bad input is one line naming the file, exit 2, and nothing written", async () => {
  const dir = tempDir();
  try {
    const config = path.join(dir, "mcp.json");
    const original = SHAPES[0].text;
    const cases: [string, string[], RegExp][] = [
      [
        '{ "mcpServers": { ',
        ["--server", "everything", "--record", "d"],
        /mcp\.json:1:\d+: not valid JSON\/JSONC/,
      ],
      [
        '{"editor": {}}',
        ["--all", "--record", "d"],
        /mcp\.json: no "mcpServers" or "servers" object/,
      ],
      [
        original,
        ["--server", "nope", "--record", "d"],
        /mcp\.json: no server named "nope" in mcpServers \(it has: other, everything, remote\)/,
      ],
      [original, ["--unwrap"], /mcp\.json: not wrapped: there is no backup/],
      [
        original,
        ["--server", "everything", "--replay", path.join(dir, "absent")],
        /mcp\.json: no cassette .*everything\.cassette\.jsonl to replay everything from/,
      ],
      [
        '{"mcpServers": {"w": {"command": "/opt/bin/mcp-cassette", "args": ["replay", "w.jsonl"]}}}',
        ["--all", "--record", "d"],
        /mcp\.json: already wrapped \(run wrap --unwrap first\); nothing changed/,
      ],
      [
        '{"mcpServers": {"a b": {"command": "x"}, "a_b": {"command": "y"}}}',
        ["--all", "--record", "d"],
        /mcp\.json: the servers "a b" and "a_b" would share the cassette a_b\.cassette\.jsonl/,
      ],
      [
        '{"mcpServers": {"ok": {"command": "x"}, "b": {"args": []}}}',
        ["--server", "b", "--record", "d"],
        /mcp\.json: mcpServers\.b has neither a "command" nor a "url"/,
      ],
      [
        '{"servers": {"web": {"type": "http", "url": "https://example.com/mcp"}}}',
        ["--all", "--record", "d"],
        /mcp\.json: no stdio server to wrap; nothing changed/,
      ],
    ];
    for (const [text, flags, message] of cases) {
      writeFileSync(config, text);
      const result = await run([...CLI, "wrap", config, ...flags], { cwd: dir });
      assert.equal(result.code, 2, `${flags.join(" ")}: ${result.stderr}`);
      assert.match(result.stderr, message);
      assert.equal(result.stderr.trim().split("\n").length, 1, result.stderr);
      assert.equal(readFileSync(config, "utf8"), text, "the config is unchanged");
      assert.equal(existsSync(config + ".mcp-cassette-backup"), false);
      assert.equal(existsSync(path.join(dir, "d")), false, "no cassette folder is made");
    }

    writeFileSync(config, original);
    const first = await run([...CLI, "wrap", config, "--server", "everything", "--record", "d"], {
      cwd: dir,
    });
    assert.equal(first.code, 0, first.stderr);
    const once = readFileSync(config, "utf8");
    const again = await run([...CLI, "wrap", config, "--server", "other", "--record", "d"], {
      cwd: dir,
    });
    assert.equal(again.code, 2);
    assert.match(
      again.stderr,
      /mcp\.json: already wrapped \(run wrap --unwrap first\); nothing changed/,
    );
    assert.equal(readFileSync(config, "utf8"), once);
    // Without its backup, the entry itself still shows it is wrapped.
    rmSync(config + ".mcp-cassette-backup");
    const bare = await run([...CLI, "wrap", config, "--all", "--record", "d"], { cwd: dir });
    assert.equal(bare.code, 2);
    assert.match(bare.stderr, /already wrapped/);
    assert.equal(readFileSync(config, "utf8"), once);
    // A relative DIR is written as an absolute path: the client starts it from its own folder.
    const entry = parse(once).mcpServers.everything;
    assert.ok(
      entry.args.includes(path.join(dir, "d", "everything.cassette.jsonl")),
      entry.args.join(" "),
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
