/**
 * Reading client configs: both shapes, Windsurf's serverUrl, entries that
 * cannot be wrapped, and the formatting wrap writes new values with.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { parseClientConfig } from "../../src/wrap/config.ts";
import { cassetteName, formattingOf } from "../../src/wrap/wrap.ts";

test("both shapes; url, serverUrl and broken entries are told apart", () => {
  const config = parseClientConfig(
    `{
      // Windsurf names a remote server's address serverUrl
      "mcpServers": {
        "local": { "command": "node", "args": ["s.js"] },
        "remote": { "serverUrl": "https://example.com/mcp" },
        "broken": { "args": ["x"] },
      },
    }`,
    "mcp_config.json",
  );
  assert.equal(config.key, "mcpServers");
  assert.deepEqual(config.servers, [
    { name: "local", command: ["node", "s.js"] },
    { name: "remote", url: "https://example.com/mcp" },
    { name: "broken", problem: 'mcpServers.broken has neither a "command" nor a "url"' },
  ]);
  const vscode = parseClientConfig(
    '{"servers": {"a": {"type": "stdio", "command": "a"}, "b": {"type": "http", "url": "http://h/mcp"}}}',
    "mcp.json",
  );
  assert.equal(vscode.key, "servers");
  assert.deepEqual(vscode.servers, [{ name: "a", command: ["a"] }, {
    name: "b",
    url: "http://h/mcp",
  }]);
});

test("cassette names and the formatting of new values", () => {
  assert.equal(cassetteName("github/issues: v2"), "github_issues__v2.cassette.jsonl");
  assert.equal(cassetteName("@scope/x.y-z"), "@scope_x.y-z.cassette.jsonl");
  assert.deepEqual(formattingOf('{\n    "a": 1\n}\n'), {
    insertSpaces: true,
    tabSize: 4,
    eol: "\n",
  });
  assert.deepEqual(formattingOf('{\r\n\t"a": 1\r\n}'), {
    insertSpaces: false,
    tabSize: 1,
    eol: "\r\n",
  });
  assert.equal(formattingOf('{"a": 1}'), undefined);
});
