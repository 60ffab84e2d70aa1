/**
 * Redaction never makes two requests the same, and an answer that echoes a
 * redacted value of its own request gives the live value back. Our SDK-free
 * Python server is recorded through real pipes with the default detectors;
 * the official TS SDK client and raw clients replay it.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { CLI, run, skipTest, tempDir } from "../helpers.ts";
import { pythonClient, setupState } from "../interop/clients.ts";
import { Client, getDefaultEnvironment, StdioClientTransport } from "../sdk.ts";
import { call, opening, recordEcho, replayLines } from "./echo.ts";

/** An environment whose recorder keeps its key in a fresh folder (no key set). */
function keyHome(): Record<string, string | undefined> {
  return { XDG_CONFIG_HOME: tempDir(), MCP_CASSETTE_REDACT_KEY: undefined };
}

async function recorded(env: Record<string, string | undefined>): Promise<string> {
  const file = path.join(tempDir(), "lookup.jsonl");
  await recordEcho(file, [
    ...opening(),
    // The Python SDK lists the tools before its first call.
    `{"jsonrpc":"2.0","id":9,"method":"tools/list"}`,
    call("2", "lookup", { who: "ann@example.com" }),
    call("3", "lookup", { who: "10.1.2.3" }),
  ], env);
  return file;
}

/** One tools/call through the official TS SDK client against `replay`; resolves with its text, or the error. */
async function sdkLookup(
  cassette: string,
  env: Record<string, string | undefined>,
  who: string,
): Promise<string> {
  const transport = new StdioClientTransport({
    command: CLI[0],
    args: [...CLI.slice(1), "replay", cassette],
    env: { ...getDefaultEnvironment(), ...env } as Record<string, string>,
    stderr: "pipe",
  });
  const client = new Client({ name: "sdk", version: "1" });
  await client.connect(transport);
  try {
    const result = await client.callTool({ name: "lookup", arguments: { who } });
    return (result.content as { text: string }[])[0].text;
  } catch (error) {
    return `error: ${(error as Error).message}`;
  } finally {
    await client.close();
  }
}

test("a live value never matches another value's recording: e-mail and IPv4 misses name the path", async () => {
  const env = keyHome();
  const file = await recorded(env);
  const bytes = readFileSync(file, "utf8");
  assert.doesNotMatch(bytes, /ann@example\.com|10\.1\.2\.3|help@example\.org/);
  assert.match(bytes, /\[REDACTED:email:[0-9a-f]{16}\]/);
  const carol = await sdkLookup(file, env, "carol@example.net");
  assert.match(carol, /error: .*-32001.*params\.arguments\.who/);
  const other = await replayLines(
    file,
    [...opening(), call("2", "lookup", { who: "10.9.9.9" })],
    env,
  );
  assert.equal(other.code, 3, other.stderr);
  assert.match(other.stdout, /"code":-32001.*params\.arguments\.who/);
});

test("an answer echoing the request's redacted value gives the live value back; one it never had stays", async () => {
  const env = keyHome();
  const file = await recorded(env);
  const text = await sdkLookup(file, env, "ann@example.com");
  assert.match(
    text,
    /^you asked about ann@example\.com; the desk is \[REDACTED:email:[0-9a-f]{16}\]$/,
  );
  const raw = await replayLines(
    file,
    [...opening(), call("2", "lookup", { who: "10.1.2.3" })],
    env,
  );
  assert.equal(raw.code, 0, raw.stderr);
  assert.match(raw.stdout, /"echo": \{"who": "10\.1\.2\.3"\}/);
});

test("a missing key or another key is one line naming the cassette and what to set, exit 2", async () => {
  const env = keyHome();
  const file = await recorded(env);
  const lines = [...opening(), call("2", "lookup", { who: "ann@example.com" })];
  const none = await replayLines(file, lines, { XDG_CONFIG_HOME: tempDir(), HOME: undefined });
  assert.equal(none.code, 2);
  assert.equal(none.stderr.trim().split("\n").length, 1, none.stderr);
  assert.match(none.stderr, /lookup\.jsonl: .*no key is set; set MCP_CASSETTE_REDACT_KEY/);
  const other = await replayLines(file, lines, { MCP_CASSETTE_REDACT_KEY: "not-the-key" });
  assert.equal(other.code, 2);
  assert.match(other.stderr, /lookup\.jsonl: .*another key.*set MCP_CASSETTE_REDACT_KEY/);
  assert.equal(other.stdout, "");
});

test("a cassette with plain placeholders keeps today's matching, and lint says it conflates", async () => {
  const env = keyHome();
  const file = await recorded(env);
  const plain = path.join(tempDir(), "plain.jsonl");
  const lines = readFileSync(file, "utf8").split("\n").map((line, at) => {
    if (at > 0) return line.replace(/\[REDACTED:([a-z0-9-]+):[0-9a-f]{16}\]/g, "[REDACTED:$1]");
    const header = JSON.parse(line);
    delete header.redaction.digest;
    return JSON.stringify(header);
  });
  writeFileSync(plain, lines.join("\n"));
  const carol = await sdkLookup(plain, {}, "carol@example.net");
  assert.equal(carol, "you asked about [REDACTED:email]; the desk is [REDACTED:email]");
  const lint = await run([...CLI, "lint", plain]);
  assert.match(lint.stdout, /MCL009/);
  assert.match(lint.stdout, /\[REDACTED:email\] without a keyed digest/);
  const keyed = await run([...CLI, "lint", file]);
  assert.doesNotMatch(keyed.stdout, /MCL009/);
});

test("Python SDK client: a live value never matches another's recording, and its own comes back", async (t) => {
  const state = setupState("python");
  if ("skip" in state) {
    return skipTest(t, `the Python SDK is not set up (${state.skip}); run tests/interop/setup.sh`);
  }
  // The SDK starts the replay with a few variables only (HOME among them): the key file lives there.
  const home = tempDir();
  const env = { HOME: home, XDG_CONFIG_HOME: undefined, MCP_CASSETTE_REDACT_KEY: undefined };
  const file = await recorded(env);
  const session = path.join(tempDir(), "session.json");
  const lookup = (who: string) => ({
    name: who,
    method: "tools/call",
    params: { name: "lookup", arguments: { who } },
  });
  writeFileSync(
    session,
    JSON.stringify({ steps: [lookup("ann@example.com"), lookup("carol@example.net")] }),
  );
  const client = pythonClient().command(session, { stdio: [...CLI, "replay", file] });
  const result = await run(client, { env });
  assert.equal(result.code, 0, result.stderr);
  const steps = JSON.parse(result.stdout).steps;
  assert.match(
    steps["ann@example.com"].result.content[0].text,
    /^you asked about ann@example\.com;/,
  );
  assert.equal(steps["carol@example.net"].error.code, -32001);
});
