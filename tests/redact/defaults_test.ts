/**
 * The default detectors catch what reached cassettes before (issue 18):
 * Stripe and npm keys, a Slack webhook, Basic credentials, a password in a
 * URL, a GitHub token used as an object key, `token <40 hex>`, an `export
 * DB_PASSWORD=` line and an Azure AccountKey, planted by a real server in
 * tool text, structured content and keys. Each is gone from the recorded
 * file's bytes and the replay still answers the same requests; `redact
 * --scan` flags each in an unredacted file.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { CLI, DENO, ROOT, run, tempDir } from "../helpers.ts";
import { leakResult, PLANTED } from "./_secrets.ts";

const SERVER = [
  DENO,
  "run",
  "-A",
  "--no-check",
  path.join(ROOT, "tests/redact/_secrets.ts"),
  "--serve",
];
const REQUESTS = [
  {
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: {
      protocolVersion: "2025-11-25",
      capabilities: {},
      clientInfo: { name: "t", version: "1" },
    },
  },
  { jsonrpc: "2.0", method: "notifications/initialized" },
  { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "leak", arguments: {} } },
];
const INPUT = REQUESTS.map((message) => JSON.stringify(message)).join("\n") + "\n";

test("every planted secret is gone from the recorded cassette, and the replay still matches", async () => {
  const dir = tempDir("mcp-cassette-redact-defaults-");
  try {
    const cassette = path.join(dir, "s.cassette.jsonl");
    const recorded = await run([...CLI, "record", "-o", cassette, "--", ...SERVER], {
      input: INPUT,
    });
    assert.equal(recorded.code, 0, recorded.stderr);
    assert.ok(recorded.stdout.includes(PLANTED["npm-token"]), "the client got the live answer");
    const bytes = readFileSync(cassette, "utf8");
    for (const [name, secret] of Object.entries(PLANTED)) {
      assert.equal(bytes.includes(secret), false, `${name} (${secret}) is in the cassette`);
    }
    for (
      const label of [
        "stripe-key",
        "npm-token",
        "slack-webhook",
        "basic-auth",
        "url-password",
        "github-token",
        "hex-token",
        "env-secret",
        "azure-key",
      ]
    ) {
      assert.match(bytes, new RegExp(`REDACTED:${label}`), label);
    }
    const replayed = await run([...CLI, "replay", cassette], { input: INPUT });
    assert.equal(replayed.code, 0, `replay missed: ${replayed.stderr}`);
    const answers = replayed.stdout.trim().split("\n").map((line) => JSON.parse(line));
    assert.deepEqual(answers.map((answer) => answer.id), [1, 2]);
    assert.equal(answers[1].error, undefined, JSON.stringify(answers[1]));
    assert.ok(
      Object.keys(answers[1].result.structuredContent.tokens).some((key) =>
        /^\[REDACTED:github-token:[0-9a-f]{16}\]$/.test(key)
      ),
      "the key is renamed",
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("redact --scan flags each planted secret in an unredacted cassette", async () => {
  const dir = tempDir("mcp-cassette-redact-scan-");
  try {
    const cassette = path.join(dir, "raw.cassette.jsonl");
    const header = {
      format: "mcp-cassette",
      version: 1,
      recorder: "mcp-cassette/0.1.0",
      created: "2026-01-01T00:00:00.000Z",
      transport: "stdio",
      era: "legacy",
      protocolVersion: "2025-11-25",
      server: { command: ["secrets"] },
    };
    const entries = [
      header,
      { type: "message", t: 1, dir: "c2s", msg: REQUESTS[2] },
      { type: "message", t: 2, dir: "s2c", msg: { jsonrpc: "2.0", id: 2, result: leakResult() } },
    ];
    writeFileSync(cassette, entries.map((entry) => JSON.stringify(entry)).join("\n") + "\n");
    const scan = await run([...CLI, "redact", "--scan", cassette]);
    assert.equal(scan.code, 4, scan.stderr);
    for (
      const name of [
        "stripe-key",
        "npm-token",
        "slack-webhook",
        "basic-auth",
        "url-password",
        "github-token",
        "hex-token",
        "env-secret",
        "azure-key",
      ]
    ) {
      assert.match(scan.stdout, new RegExp(`detector:${name}`), `${name} in:\n${scan.stdout}`);
    }
    // Whatever lint calls a high-entropy string here, a detector knows by its shape.
    const lint = await run([...CLI, "lint", "--format", "json", cassette]);
    const report = JSON.parse(lint.stdout) as { findings: { message: string; pointer: string }[] };
    const flagged = report.findings.filter((finding) => /high-entropy/.test(finding.message));
    assert.ok(flagged.length > 0, `lint warns of high entropy here: ${lint.stdout}`);
    for (const { pointer } of flagged) {
      assert.ok(scan.stdout.includes(` ${pointer} detector:`), `redact --scan flags ${pointer}`);
    }
    assert.equal(
      scan.stdout.includes(PLANTED["github-key"]),
      false,
      "no secret in the scan's output",
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
