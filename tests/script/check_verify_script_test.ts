/**
 * `check --script` and `verify --script`: the playbook chooses what they
 * send to server-everything.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { CLI, DENO, EVERYTHING, ROOT, run, tempDir } from "../helpers.ts";

const BASIC = path.join(ROOT, "tests/script/playbooks/everything_basic.jsonc");

test("check --script: the playbook's steps run after the listing, a failed step is an error finding", async () => {
  const dir = tempDir();
  try {
    const passing = await run([...CLI, "check", "--script", BASIC, "--", ...EVERYTHING]);
    assert.equal(passing.code, 0, passing.stdout + passing.stderr);
    assert.match(passing.stdout, /result: PASS/);

    const playbook = path.join(dir, "failing.jsonc");
    writeFileSync(
      playbook,
      JSON.stringify({
        steps: [{ call: "echo", arguments: { message: "hi" } }, { read: "demo://nowhere" }],
      }),
    );
    const failing = await run([
      ...CLI,
      "check",
      "--script",
      playbook,
      "--json",
      "--",
      ...EVERYTHING,
    ]);
    assert.equal(failing.code, 1, failing.stdout + failing.stderr);
    const report = JSON.parse(failing.stdout);
    assert.equal(report.result, "FAIL");
    assert.equal(report.findings.length, 1, failing.stdout);
    assert.equal(report.findings[0].where, `${playbook} step 2 (read demo://nowhere)`);
    assert.match(report.findings[0].message, /^the step failed: resources\/read failed: /);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("verify --script: only the recorded exchanges the playbook sends are re-sent", async () => {
  const dir = tempDir();
  try {
    const cassette = path.join(dir, "basic.cassette.jsonl");
    const recorded = await run([
      ...CLI,
      "record",
      "--script",
      BASIC,
      "-o",
      cassette,
      "--",
      ...EVERYTHING,
    ]);
    assert.equal(recorded.code, 0, recorded.stderr);
    const subset = path.join(dir, "subset.toml");
    writeFileSync(
      subset,
      '[[steps]]\nlist = "prompts"\n\n[[steps]]\ncall = "get-sum"\narguments = { a = 2, b = 40 }\n',
    );
    const verified = await run([
      ...CLI,
      "verify",
      cassette,
      "--script",
      subset,
      "--json",
      "--",
      ...EVERYTHING,
    ]);
    assert.equal(verified.code, 0, verified.stderr);
    const report = JSON.parse(verified.stdout);
    const sent = report.exchanges.map((exchange: { method: string }) => exchange.method);
    // In the recorded order, whatever the playbook's.
    assert.deepEqual(sent, ["initialize", "tools/call", "prompts/list"]);
    assert.equal(report.failed, 0);

    const update = await run([
      ...CLI,
      "verify",
      cassette,
      "--script",
      subset,
      "--update",
      "--",
      ...EVERYTHING,
    ]);
    assert.equal(update.code, 2, update.stderr);
    assert.match(update.stderr, /verify --script does not take --update/);

    const unknown = path.join(dir, "unknown.jsonc");
    writeFileSync(
      unknown,
      JSON.stringify({ steps: [{ call: "echo", arguments: { message: "bye" } }] }),
    );
    const refused = await run([
      ...CLI,
      "verify",
      cassette,
      "--script",
      unknown,
      "--",
      ...EVERYTHING,
    ]);
    assert.equal(refused.code, 2, refused.stderr);
    assert.match(
      refused.stderr,
      /unknown\.jsonc: step 1 \(call echo\) was never recorded in .*basic\.cassette\.jsonl/,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("a list step follows every page, and verify --script re-sends every page of it", async () => {
  const dir = tempDir();
  try {
    const paged = [
      DENO,
      "run",
      "-A",
      "--no-check",
      path.join(ROOT, "tests/fixtures/check/paged_server.ts"),
    ];
    const playbook = path.join(dir, "lists.jsonc");
    writeFileSync(playbook, '{"steps": [{"list": "tools"}, {"call": "tool_7"}]}');
    const cassette = path.join(dir, "paged.cassette.jsonl");
    const recorded = await run([
      ...CLI,
      "record",
      "--script",
      playbook,
      "-o",
      cassette,
      "--",
      ...paged,
    ]);
    assert.equal(recorded.code, 0, recorded.stderr);
    const cursors = readFileSync(cassette, "utf8").trim().split("\n").map((line) =>
      JSON.parse(line)
    )
      .filter((entry) => entry.dir === "c2s" && entry.msg?.method === "tools/list")
      .map((entry) => entry.msg.params?.cursor ?? null);
    assert.deepEqual(cursors, [null, "3", "6"]);

    const only = path.join(dir, "only-lists.jsonc");
    writeFileSync(only, '{"steps": [{"list": "tools"}]}');
    const verified = await run([
      ...CLI,
      "verify",
      cassette,
      "--script",
      only,
      "--json",
      "--",
      ...paged,
    ]);
    assert.equal(verified.code, 0, verified.stderr);
    const sent = JSON.parse(verified.stdout).exchanges.map((exchange: { method: string }) =>
      exchange.method
    );
    assert.deepEqual(sent, ["initialize", "tools/list", "tools/list", "tools/list"]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
