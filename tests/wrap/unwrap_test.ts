/**
 * `wrap --unwrap` after the client rewrote its own config while it was
 * wrapped: a Claude Desktop config (plain JSON, as the app writes it) and a
 * VS Code `.vscode/mcp.json` (JSONC with comments) each get a server added
 * and a setting changed between wrap and unwrap. Unwrap keeps both and
 * gives the wrapped entry its original command and args back, byte for
 * byte; the URL hint names the folder wrap was given.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { applyEdits, findNodeAtLocation, modify, parse, parseTree } from "jsonc-parser";
import { CLI, run, tempDir } from "../helpers.ts";

const CLAUDE = `{
  "mcpServers": {
    "filesystem": {
      "command": "npx",
      "args": ["-y", "@modelcontextprotocol/server-filesystem", "/Users/me/Desktop"]
    },
    "remote": {
      "url": "https://example.com/mcp"
    }
  },
  "globalShortcut": "Ctrl+Space"
}
`;

const VSCODE = `{
\t// Workspace servers
\t"servers": {
\t\t"filesystem": {
\t\t\t"type": "stdio",
\t\t\t"command": "npx",
\t\t\t"args": ["-y", "@modelcontextprotocol/server-filesystem", "\${workspaceFolder}"], // the repo
\t\t},
\t\t"remote": { "type": "http", "url": "https://example.com/mcp" },
\t},
}
`;

const SHAPES = [
  { name: "Claude Desktop (JSON)", key: "mcpServers", text: CLAUDE, setting: ["globalShortcut"] },
  { name: "VS Code (JSONC)", key: "servers", text: VSCODE, setting: ["inputs"] },
];

/** The raw text of the value at `location`. */
function raw(text: string, location: string[]): string {
  const node = findNodeAtLocation(parseTree(text)!, location)!;
  return text.slice(node.offset, node.offset + node.length);
}

/** An edit as the client makes it: jsonc-parser's modify with the file's indentation. */
function clientEdit(text: string, location: string[], value: unknown): string {
  const tabs = text.includes("\n\t");
  const formattingOptions = { insertSpaces: !tabs, tabSize: tabs ? 1 : 2, eol: "\n" };
  return applyEdits(text, modify(text, location, value, { formattingOptions }));
}

for (const shape of SHAPES) {
  test(`wrap --unwrap (${shape.name}): keeps a server and a setting the client added while wrapped`, async () => {
    const dir = tempDir();
    try {
      const config = path.join(dir, "config.json");
      const cassettes = path.join(dir, "cassettes");
      writeFileSync(config, shape.text);
      const wrapped = await run([
        ...CLI,
        "wrap",
        config,
        "--server",
        "filesystem",
        "--server",
        "remote",
        "--record",
        cassettes,
      ]);
      assert.equal(wrapped.code, 0, wrapped.stderr);
      // The hint for the URL server writes its cassette into the folder wrap was given.
      assert.ok(
        wrapped.stderr.includes(
          "remote: left alone, it is reached at a URL; record it with mcp-cassette record " +
            `--url https://example.com/mcp -o ${path.join(cassettes, "remote.cassette.jsonl")} `,
        ),
        wrapped.stderr,
      );

      let edited = readFileSync(config, "utf8");
      edited = clientEdit(edited, [shape.key, "added-later"], {
        command: "uvx",
        args: ["mcp-server-fetch"],
      });
      edited = clientEdit(edited, shape.setting, shape.key === "servers" ? [] : "Alt+Space");
      writeFileSync(config, edited);

      const unwrapped = await run([...CLI, "wrap", config, "--unwrap"]);
      assert.equal(unwrapped.code, 0, unwrapped.stderr);
      const text = readFileSync(config, "utf8");
      const now = parse(text);
      assert.deepEqual(now[shape.key]["added-later"], {
        command: "uvx",
        args: ["mcp-server-fetch"],
      });
      assert.deepEqual(now[shape.setting[0]], shape.key === "servers" ? [] : "Alt+Space");
      for (const field of ["command", "args"]) {
        assert.equal(
          raw(text, [shape.key, "filesystem", field]),
          raw(shape.text, [shape.key, "filesystem", field]),
        );
      }
      assert.deepEqual(now[shape.key].remote, parse(shape.text)[shape.key].remote);
      assert.equal(existsSync(config + ".mcp-cassette-backup"), false);
      assert.deepEqual(
        Object.keys(now[shape.key]),
        [...Object.keys(parse(shape.text)[shape.key]), "added-later"],
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
}
