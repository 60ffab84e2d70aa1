/**
 * [testing]: what startCassette takes from mcp-cassette.toml when a test did
 * not pass it (cassette folder, mode, match, redaction), through a real
 * process whose working folder holds the file.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { DENO, ROOT, run, tempDir } from "../helpers.ts";

const PROBE = [
  DENO,
  "run",
  "-A",
  "--no-check",
  path.join(ROOT, "tests/config/fixtures/start_probe.ts"),
];

interface Probe {
  path: string;
  mode: string;
  args: string[];
}

async function probe(
  cwd: string,
  options: Record<string, unknown>,
  env: Record<string, string | undefined> = {},
): Promise<Probe> {
  const result = await run([...PROBE, JSON.stringify(options)], {
    cwd,
    env: { MCP_CASSETTE_MODE: undefined, ...env },
  });
  assert.equal(result.code, 0, result.stderr);
  return JSON.parse(result.stdout);
}

test("[testing] fills what the test did not pass: cassette-dir, mode, match and redaction", async () => {
  const dir = tempDir("mcp-cassette-testing-test-");
  try {
    mkdirSync(path.join(dir, "cassettes"));
    writeFileSync(
      path.join(dir, "mcp-cassette.toml"),
      `[testing]\ncassette-dir = "cassettes"\nmode = "all"\nmatch = "lenient"\nmatch-ignore = ["params.arguments.id"]\nredact = ["key:token"]\n`,
    );
    const sub = path.join(dir, "tests");
    mkdirSync(sub);
    const recorded = await probe(sub, { path: "adder.jsonl", server: ["node", "adder.js"] });
    assert.equal(recorded.path, path.join(dir, "cassettes", "adder.jsonl"));
    assert.equal(recorded.mode, "all");
    assert.ok(recorded.args.includes("record"), recorded.args.join(" "));
    const beforeServer = recorded.args.slice(0, recorded.args.indexOf("--"));
    assert.deepEqual(beforeServer.slice(-2), ["--redact", "key:token"]);

    writeFileSync(path.join(dir, "cassettes", "adder.jsonl"), "");
    const replayed = await probe(sub, { path: "adder.jsonl", mode: "once" });
    assert.equal(replayed.mode, "once", "the code's mode beats the file's");
    assert.ok(replayed.args.includes("replay"), replayed.args.join(" "));
    assert.deepEqual(replayed.args.slice(-5), [
      "--lenient",
      "--match-ignore",
      "params.arguments.id",
      "--redact",
      "key:token",
    ]);

    const forced = await probe(sub, { path: "adder.jsonl" }, { MCP_CASSETTE_MODE: "none" });
    assert.equal(forced.mode, "none", "MCP_CASSETTE_MODE beats the file");
    const explicit = await probe(sub, {
      path: "adder.jsonl",
      mode: "none",
      replayArgs: ["--quiet"],
    });
    assert.deepEqual(explicit.args.slice(-1), ["--quiet"], "replayArgs given in code win");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("[testing] mistakes name the file and line; without a file nothing changes", async () => {
  const dir = tempDir("mcp-cassette-testing-test-");
  try {
    writeFileSync(path.join(dir, "mcp-cassette.toml"), `[testing]\n\nmode = "sometimes"\n`);
    const result = await run([...PROBE, JSON.stringify({ path: "x.jsonl", server: ["node"] })], {
      cwd: dir,
      env: { MCP_CASSETTE_MODE: undefined },
    });
    assert.notEqual(result.code, 0);
    assert.match(result.stderr, /Unknown record mode "sometimes" from \S+mcp-cassette\.toml:3/);
    writeFileSync(path.join(dir, "mcp-cassette.toml"), `[testing]\ncasette-dir = "x"\n`);
    const typo = await run([...PROBE, JSON.stringify({ path: "x.jsonl", server: ["node"] })], {
      cwd: dir,
      env: { MCP_CASSETTE_MODE: undefined },
    });
    assert.match(
      typo.stderr,
      /mcp-cassette\.toml:2: unknown key "casette-dir" in \[testing\]\. Did you mean "cassette-dir"\?/,
    );
    rmSync(path.join(dir, "mcp-cassette.toml"));
    const plain = await probe(dir, { path: "x.jsonl", server: ["node", "s.js"] });
    assert.equal(plain.path, path.join(dir, "x.jsonl"));
    assert.equal(plain.mode, "once");
    assert.equal(plain.args.slice(plain.args.indexOf("--run-log") + 2)[0], "--");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
