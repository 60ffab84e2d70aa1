/**
 * mcp-cassette.toml through the real CLI: sections keyed by the commands'
 * long options, the nearest file above the working folder, precedence flag >
 * environment > file > default, and every mistake named by file, line and key.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { CLI, ROOT, run, tempDir } from "../helpers.ts";

const EXAMPLES = path.join(ROOT, "examples/cassettes");
const WEATHER = path.join(EXAMPLES, "weather.cassette.jsonl");
const POISONED = path.join(EXAMPLES, "weather-poisoned.cassette.jsonl");

/** A client session asking the weather cassette for a city it never recorded. */
const INEXACT_SESSION = [
  {
    jsonrpc: "2.0",
    id: 0,
    method: "initialize",
    params: {
      protocolVersion: "2025-11-25",
      capabilities: {},
      clientInfo: { name: "example-client", version: "1.0.0" },
    },
  },
  { jsonrpc: "2.0", method: "notifications/initialized" },
  {
    jsonrpc: "2.0",
    id: 1,
    method: "tools/call",
    params: { name: "get_forecast", arguments: { city: "Paris" } },
  },
].map((message) => JSON.stringify(message)).join("\n") + "\n";

/** Runs `body` with a fresh folder holding `toml` as mcp-cassette.toml; removes the folder. */
async function withConfig(toml: string, body: (dir: string) => Promise<void>): Promise<void> {
  const dir = tempDir("mcp-cassette-config-test-");
  try {
    writeFileSync(path.join(dir, "mcp-cassette.toml"), toml);
    await body(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test("[replay] lenient = true applies to replay, from a parent folder; the flag-less run is exact", async () => {
  const exact = await run([...CLI, "replay", WEATHER], { input: INEXACT_SESSION });
  assert.equal(exact.code, 3, exact.stderr);
  assert.match(exact.stderr, /miss: No recorded answer for tools\/call "get_forecast"/);
  await withConfig("# tests\n[replay]\nlenient = true\n", async (dir) => {
    const deeper = path.join(dir, "a", "b");
    mkdirSync(deeper, { recursive: true });
    const lenient = await run([...CLI, "replay", WEATHER], { input: INEXACT_SESSION, cwd: deeper });
    assert.equal(lenient.code, 0, lenient.stderr);
    assert.match(lenient.stderr, /inexact match/);
  });
  await withConfig("[replay]\nlenient = true\nstrict = true\n", async (dir) => {
    const strict = await run([...CLI, "replay", WEATHER], { input: INEXACT_SESSION, cwd: dir });
    assert.equal(strict.code, 3, `strict = true turns leniency off again: ${strict.stderr}`);
  });
});

test("precedence: flag, then MCP_CASSETTE_<SECTION>_<KEY>, then file, then default", async () => {
  await withConfig(`[lint]\nformat = "json"\nfail-on = "warning"\n`, async (dir) => {
    const fromFile = await run([...CLI, "lint", POISONED], { cwd: dir });
    assert.equal(fromFile.code, 4);
    assert.equal(JSON.parse(fromFile.stdout).failOn, "warning");
    const fromEnv = await run([...CLI, "lint", POISONED], {
      cwd: dir,
      env: { MCP_CASSETTE_LINT_FORMAT: "sarif" },
    });
    assert.equal(JSON.parse(fromEnv.stdout).version, "2.1.0", "SARIF from the environment");
    const fromFlag = await run([...CLI, "lint", POISONED, "--format", "text"], {
      cwd: dir,
      env: { MCP_CASSETTE_LINT_FORMAT: "sarif" },
    });
    assert.match(fromFlag.stdout, /— failing \(--fail-on warning\)/);
  });
  const byDefault = await run([...CLI, "lint", POISONED]);
  assert.match(byDefault.stdout, /— failing \(--fail-on error\)/);
});

test("[lint] keeps its old keys: packs (relative to the file) and fail_on", async () => {
  await withConfig(`[lint]\nfail_on = "warning"\npacks = ["team.toml"]\n`, async (dir) => {
    writeFileSync(
      path.join(dir, "team.toml"),
      `[[rule]]\nid = "TEAM1"\nsurface = "tool.description"\nregex = "forecast"\nseverity = "warning"\nmessage = "mentions the forecast"\n`,
    );
    const sub = path.join(dir, "sub");
    mkdirSync(sub);
    const result = await run([...CLI, "lint", WEATHER], { cwd: sub });
    assert.equal(result.code, 4, result.stdout + result.stderr);
    assert.match(result.stdout, /warning TEAM1/);
  });
});

test("an unknown key, an unknown section, a wrong type: exit 2, one line with file:line and the key", async () => {
  const cases: [string, RegExp][] = [
    [
      `[replay]\n\nstrcit = true\n`,
      /mcp-cassette\.toml:3: unknown key "strcit" in \[replay\]\. Did you mean "strict"\?/,
    ],
    [
      `[replya]\nstrict = true\n`,
      /mcp-cassette\.toml:1: unknown section \[replya\]\. Did you mean \[replay\]\?/,
    ],
    [
      `[replay]\nstrict = "yes"\n`,
      /mcp-cassette\.toml:2: \[replay\] strict must be a boolean \(true or false\), not "yes"/,
    ],
    [
      `[replay]\nlisten = 8080\n`,
      /mcp-cassette\.toml:2: \[replay\] listen must be a string, not 8080/,
    ],
    [
      `[replay]\n"redact" = [1]\n`,
      /:2: \[replay\] redact must be a string or an array of them, not an array/,
    ],
    [`[replay]\nstrict = true\n[replay.more]\nx = 1\n`, /:3: unknown key "more" in \[replay\]/],
    [`strict = true\n`, /:1: unknown section \[strict\]/],
    [`[replay]\nstrict = \n`, /mcp-cassette\.toml:2: not valid TOML/],
  ];
  for (const [toml, expected] of cases) {
    await withConfig(toml, async (dir) => {
      const result = await run([...CLI, "replay", WEATHER], { cwd: dir, input: "" });
      assert.equal(result.code, 2, `${toml}: ${result.stderr}`);
      assert.equal(result.stderr.trim().split("\n").length, 1, result.stderr);
      assert.match(result.stderr, expected);
      assert.ok(result.stderr.includes(path.join(dir, "mcp-cassette.toml")), result.stderr);
    });
  }
});

test("numbers: an option taking N or MS accepts a TOML integer; a bad one names where it was set", async () => {
  await withConfig(`[verify]\ntimeout-ms = 2500\n`, async (dir) => {
    const explained = await run([...CLI, "inspect", "--explain-config"], { cwd: dir });
    assert.equal(explained.code, 0, explained.stderr);
    assert.match(explained.stdout, /timeout-ms\s+= "2500"\s+\S+mcp-cassette\.toml:2/);
  });
  await withConfig(`[verify]\ntimeout-ms = -1\n`, async (dir) => {
    const result = await run([...CLI, "verify", WEATHER, "--dry-run"], { cwd: dir });
    assert.equal(result.code, 2, result.stderr);
    assert.match(
      result.stderr,
      /--timeout-ms must be a positive integer, not "-1" \(set by \S+mcp-cassette\.toml:2\)/,
    );
  });
  const fromEnv = await run([...CLI, "verify", WEATHER, "--dry-run"], {
    env: { MCP_CASSETTE_VERIFY_TIMEOUT_MS: "soon" },
  });
  assert.equal(fromEnv.code, 2);
  assert.match(fromEnv.stderr, /not "soon" \(set by env MCP_CASSETTE_VERIFY_TIMEOUT_MS\)/);
  const badBoolean = await run([...CLI, "replay", WEATHER], {
    env: { MCP_CASSETTE_REPLAY_STRICT: "maybe" },
    input: "",
  });
  assert.equal(badBoolean.code, 2);
  assert.match(badBoolean.stderr, /MCP_CASSETTE_REPLAY_STRICT must be true or false/);
});

test("inspect --explain-config: each setting, its value and where it came from; [testing] checked", async () => {
  const toml =
    `[replay]\nstrict = true\n\n[testing]\ncassette-dir = "cassettes"\nmatch = "exact"\n`;
  await withConfig(toml, async (dir) => {
    const result = await run([...CLI, "inspect", "--explain-config"], {
      cwd: dir,
      env: { MCP_CASSETTE_REPLAY_PACE: "recorded", MCP_CASSETTE_MODE: undefined },
    });
    assert.equal(result.code, 0, result.stderr);
    const file = path.join(dir, "mcp-cassette.toml");
    assert.ok(result.stdout.startsWith(`config file: ${file}\n`), result.stdout);
    const line = (key: string, section: string) =>
      result.stdout.split(`[${section}]`)[1].split("\n").find((text) =>
        text.trim().startsWith(key + " ")
      );
    assert.match(
      line("strict", "replay")!,
      new RegExp(`= true\\s+${file.replace(/[.]/g, "\\.")}:2$`),
    );
    assert.match(line("pace", "replay")!, /= "recorded"\s+env MCP_CASSETTE_REPLAY_PACE$/);
    assert.match(line("max-streams", "replay")!, /= "1024"\s+default$/);
    assert.match(line("cassette-dir", "testing")!, new RegExp(`= "${dir}/cassettes"\\s+\\S+:5$`));
    assert.match(line("match", "testing")!, /= "exact"\s+\S+:6$/);
  });
  await withConfig(`[testing]\nmatch = "fuzzy"\n`, async (dir) => {
    const result = await run([...CLI, "inspect", "--explain-config"], { cwd: dir });
    assert.equal(result.code, 2);
    assert.match(
      result.stderr,
      /mcp-cassette\.toml:2: \[testing\] match must be "exact" or "lenient", not "fuzzy"/,
    );
  });
});
