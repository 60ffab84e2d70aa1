import { after, describe, it } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { CLI } from "../helpers.ts";

const root = fileURLToPath(new URL("../../", import.meta.url));
const dir = mkdtempSync(join(tmpdir(), "redact-cmd-"));
after(() => rmSync(dir, { recursive: true, force: true }));

const PASSWORD = "hunter2-very-secret";
const EMAIL = "ann.lee@example.org";
const GH = `ghp_${"Z9".repeat(18)}`;
const CARD = "4111 1111 1111 1111";

function cassette(name: string, lines: unknown[]): string {
  const path = join(dir, name);
  writeFileSync(path, lines.map((line) => JSON.stringify(line)).join("\n") + "\n");
  return path;
}

function header(extra: Record<string, unknown> = {}) {
  return {
    format: "mcp-cassette",
    version: 1,
    recorder: "mcp-cassette/0.1.0",
    created: "2025-11-25T10:00:00.000Z",
    transport: "http",
    server: { url: `http://example.test/mcp?api_key=${PASSWORD}` },
    ...extra,
  };
}

const SECRET_LINES = [
  header(),
  {
    type: "http-request",
    t: 0,
    x: 1,
    method: "POST",
    path: "/mcp?token=abc123",
    headers: { authorization: `Bearer ${GH}`, accept: "application/json" },
  },
  {
    type: "message",
    t: 1,
    x: 1,
    dir: "c2s",
    msg: {
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: {
        name: "pay",
        _meta: { progressToken: "p-1" },
        arguments: { password: PASSWORD, card: CARD },
      },
    },
  },
  {
    type: "message",
    t: 2,
    x: 1,
    dir: "s2c",
    msg: {
      jsonrpc: "2.0",
      id: 1,
      result: { content: [{ type: "text", text: `sent to ${EMAIL}` }], maxTokens: 10 },
    },
  },
  { type: "raw", t: 3, dir: "s2c", text: `debug: GITHUB_TOKEN=${GH}` },
];

function cli(...args: string[]): { code: number; stdout: string; stderr: string } {
  const result = spawnSync(CLI[0], [...CLI.slice(1), "redact", ...args], {
    cwd: root,
    encoding: "utf8",
    env: { ...process.env, NO_COLOR: "1" },
  });
  return { code: result.status ?? -1, stdout: result.stdout, stderr: result.stderr };
}

describe("mcp-cassette redact", { timeout: 60_000 }, () => {
  it("--scan lists findings without secrets and exits 4", () => {
    const path = cassette("scan.jsonl", SECRET_LINES);
    const { code, stdout } = cli(path, "--scan");
    assert.equal(code, 4, stdout);
    const lines = stdout.trim().split("\n");
    assert.deepEqual(lines, [
      `${path}:1 /server/url keys:default`,
      `${path}:2 /headers/authorization keys:default`,
      `${path}:2 /path keys:default`,
      `${path}:3 /msg/params/arguments/password keys:default`,
      `${path}:3 /msg/params/arguments/card detector:payment-card`,
      `${path}:4 /msg/result/content/0/text detector:email`,
      `${path}:5 /text keys:default`,
    ]);
    for (const secret of [PASSWORD, EMAIL, GH, CARD, "abc123"]) {
      assert.ok(!stdout.includes(secret), secret);
    }
  });

  it("scrubs in place: no secret bytes left, protocol fields kept, header records the rules; then scans clean", () => {
    const path = cassette("scrub.jsonl", SECRET_LINES);
    const { code, stdout, stderr } = cli(path, "--redact", "/params/name");
    assert.equal(code, 0, stderr);
    assert.match(stdout, /^Scrubbed .*scrub\.jsonl: 8 value\(s\) redacted in 4 of 4 entries/);
    const text = readFileSync(path, "utf8");
    for (const secret of [PASSWORD, EMAIL, GH, CARD, "abc123", '"pay"']) {
      assert.ok(!text.includes(secret), secret);
    }
    const [first, request, call, result] = text.trim().split("\n").map((line) => JSON.parse(line));
    assert.deepEqual(first.redaction.rules.slice(0, 3), [
      "pointer:/params/name",
      "keys:default",
      "detector:private-key",
    ]);
    assert.match(
      first.server.url,
      /^http:\/\/example\.test\/mcp\?api_key=\[REDACTED:credential:[0-9a-f]{16}\]$/,
    );
    assert.deepEqual(request.credentials, ["authorization"]);
    assert.deepEqual(request.headers, { accept: "application/json" });
    assert.equal(call.msg.params._meta.progressToken, "p-1");
    assert.match(call.msg.params.arguments.password, /^\[REDACTED:credential:[0-9a-f]{16}\]$/);
    assert.equal(result.msg.result.maxTokens, 10);
    assert.deepEqual(readdirSync(dir).filter((name) => name.endsWith(".partial")), []);
    assert.equal(cli(path, "--scan", "--redact", "/params/name").code, 0);
    // Scrubbing again changes nothing (idempotent), byte for byte.
    assert.equal(cli(path, "--redact", "/params/name").code, 0);
    assert.equal(readFileSync(path, "utf8"), text);
  });

  it("a clean cassette scans with exit 0 and no output", () => {
    const path = cassette("clean.jsonl", [
      header({ server: { command: ["node", "server.js"] }, transport: "stdio" }),
      {
        type: "message",
        t: 1,
        dir: "c2s",
        msg: {
          jsonrpc: "2.0",
          id: 1,
          method: "initialize",
          params: { protocolVersion: "2025-11-25" },
        },
      },
    ]);
    const { code, stdout } = cli(path, "--scan");
    assert.equal(code, 0);
    assert.equal(stdout, "");
  });

  it("--no-detectors keeps only the key rule; a bad pack exits 2 naming file and rule", () => {
    const path = cassette("nodet.jsonl", SECRET_LINES);
    const scan = cli(path, "--scan", "--no-detectors");
    assert.equal(scan.code, 4);
    assert.ok(!scan.stdout.includes("detector:"), scan.stdout);
    const pack = join(dir, "broken.toml");
    writeFileSync(pack, `[[rules]]\nlabel = "oops"\nregex = "[unclosed"\n`);
    const bad = cli(path, "--pack", pack);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /broken\.toml, rule "oops": invalid regex/);
    assert.equal(
      readFileSync(path, "utf8").includes(PASSWORD),
      true,
      "file untouched after a bad pack",
    );
  });
});
