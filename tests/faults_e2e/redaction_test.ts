/**
 * Redaction, end to end over stdio: the SDK client sends planted (fake)
 * secrets through `record` to server-everything — in tool arguments, which
 * `echo` returns in its result, and in an environment value the recorded
 * server prints back through `get-env`. None of them may be in the cassette's
 * bytes, and a replay with the same client, sending the same live secrets,
 * must still match every request: replay re-applies the recording's rules to
 * the client's requests before matching. Over HTTP, the same holds for a
 * secret in the URL's query string and in an Authorization header.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { CLI, tempDir } from "../helpers.ts";
import type { Background } from "../http/http_helpers.ts";
import { startBackground, startEverythingHttp, URL_LINE } from "../http/http_helpers.ts";
import type { Call, ClientRun } from "./_shared.ts";
import { recordCommand, replayCommand, runClient } from "./_shared.ts";

// Fake, format-valid secrets: each one is what its detector looks for.
const AWS_KEY = "AKIAQ3EXAMPLE7KEY4ZZ";
const OPENAI_KEY = "sk-proj-T3stOnlyN0tAR3alK3y0123456789";
const EMAIL = "ada.lovelace@example.org";
const CARD = "4242 4242 4242 4242"; // passes Luhn
const CARD_DIGITS = CARD.replaceAll(" ", "");
const GITHUB_TOKEN = "ghp_" + "Zq9x".repeat(9); // ghp_ + 36
const ENV_NAME = "MY_API_TOKEN";

const MESSAGE = `aws ${AWS_KEY} openai ${OPENAI_KEY} mail ${EMAIL} card ${CARD}`;

const CALLS: Call[] = [
  { label: "echo", op: "tools/call", name: "echo", arguments: { message: MESSAGE } },
  { label: "echo-card-only", op: "tools/call", name: "echo", arguments: { message: CARD_DIGITS } },
  { label: "env", op: "tools/call", name: "get-env" },
];

/** Every form of every planted secret that must not reach the file. */
const SECRETS = [AWS_KEY, OPENAI_KEY, EMAIL, CARD, CARD_DIGITS, GITHUB_TOKEN];

test("planted secrets in arguments, results and a server's environment never reach the cassette; replay still matches", async () => {
  const dir = tempDir("mcp-cassette-redaction-");
  const cassette = path.join(dir, "secrets.cassette.jsonl");
  const live = await runClient(CALLS, recordCommand(cassette), {
    serverEnv: { [ENV_NAME]: GITHUB_TOKEN },
  });
  // The live server really saw and returned them (else the test proves nothing).
  assert.equal(live.byLabel.get("echo")?.text, `Echo: ${MESSAGE}`.slice(0, 80));
  assert.equal(live.byLabel.get("echo-card-only")?.text, `Echo: ${CARD_DIGITS}`);
  const liveEnv = live.byLabel.get("env");
  assert.equal(liveEnv?.outcome, "ok");
  const bytes = readFileSync(cassette, "utf8");
  assert.ok(
    bytes.includes("get-env") && bytes.includes(ENV_NAME),
    "the cassette holds the get-env exchange",
  );

  for (const secret of SECRETS) assert.ok(!bytes.includes(secret), `the cassette holds ${secret}`);
  for (const placeholder of ["aws-access-key-id", "openai-key", "email", "payment-card"]) {
    assert.ok(
      new RegExp(`\\[REDACTED:${placeholder}:[0-9a-f]{16}\\]`).test(bytes),
      `no [REDACTED:${placeholder}] in the cassette`,
    );
  }

  const reportFile = path.join(dir, "report.json");
  const codeFile = path.join(dir, "replay.code");
  const replay = await runClient(
    CALLS,
    exitCodeTo(codeFile, replayCommand(cassette, ["--report", reportFile])),
  );
  for (const call of replay.calls) assert.equal(call.outcome, "ok", JSON.stringify(call));
  const report = JSON.parse(readFileSync(reportFile, "utf8"));
  assert.deepEqual(report.misses, [], "the live secrets still match their scrubbed recordings");
  assert.deepEqual(report.inexact, []);
  assert.deepEqual(report.unplayed, []);
  assert.equal(readFileSync(codeFile, "utf8").trim(), "0", "replay exit code");
  // The server echoed the request's key: the replayed client gets the live one back
  // (docs/redaction.md, "Replay"), though the cassette never held it.
  const echoed = replay.byLabel.get("echo")?.text ?? "";
  assert.ok(echoed.includes(AWS_KEY), echoed);
});

test("secrets in an HTTP recording's URL query and Authorization header never reach the cassette; replay still matches", async () => {
  const dir = tempDir("mcp-cassette-redaction-http-");
  const cassette = path.join(dir, "secrets-http.cassette.jsonl");
  const calls: Call[] = [CALLS[0]];
  const query = `?api_key=${OPENAI_KEY}&user=${encodeURIComponent(EMAIL)}`;
  const authorization = `Authorization: Bearer ${GITHUB_TOKEN}`;
  const server = await startEverythingHttp();
  let recorder: Background | undefined;
  let live: ClientRun;
  try {
    recorder = await startBackground(
      [...CLI, "record", "-o", cassette, "--url", server.url],
      URL_LINE,
    );
    live = await runClient(calls, { url: recorder.found + query, headers: [authorization] });
  } finally {
    await recorder?.stop();
    await server.stop();
  }
  assert.equal(live.byLabel.get("echo")?.outcome, "ok");
  const bytes = readFileSync(cassette, "utf8");
  for (const secret of [...SECRETS, encodeURIComponent(EMAIL)]) {
    assert.ok(!bytes.includes(secret), `the cassette holds ${secret}`);
  }
  assert.ok(
    /api_key=\[REDACTED:credential:[0-9a-f]{16}\]/.test(bytes),
    "the query parameter is scrubbed, not dropped",
  );
  assert.ok(
    bytes.includes('"credentials":["authorization"]'),
    "the Authorization header is named, not written",
  );

  const reportFile = path.join(dir, "report.json");
  const replay = await startBackground(
    [...CLI, "replay", cassette, "--listen", "127.0.0.1:0", "--report", reportFile],
    URL_LINE,
  );
  let replayed: ClientRun;
  try {
    replayed = await runClient(calls, { url: replay.found + query, headers: [authorization] });
  } finally {
    assert.equal(await replay.stop(), 0, "replay exit code");
  }
  assert.equal(replayed.byLabel.get("echo")?.outcome, "ok", JSON.stringify(replayed.calls));
  const report = JSON.parse(readFileSync(reportFile, "utf8"));
  assert.deepEqual(report.misses, []);
  assert.deepEqual(report.inexact, []);
});

/** Wraps a server command line so its exit code lands in `file` (the SDK client cannot see it). */
function exitCodeTo(file: string, command: string[]): string[] {
  return ["sh", "-c", `"$@"; echo $? > '${file}'`, "sh", ...command];
}
