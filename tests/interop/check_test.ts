/**
 * The interop checker on its own, against the committed golden cassettes: a
 * client output built from what a cassette recorded passes, and each way a
 * client can differ (another era, another value, a field it drops) fails
 * unless sdk_limits.json or the zero-value rule allows it.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import {
  cassetteEra,
  checkClientOutput,
  loadLimits,
  loadSession,
  recordedExchanges,
} from "./check.ts";
import type { ClientOutput } from "./check.ts";
import { GOLDEN, HERE, SESSION } from "./golden.ts";

const MODERN = path.join(HERE, "golden", "python-stdio.cassette.jsonl");
const LIMITS = path.join(HERE, "sdk_limits.json");

/** What a faithful client would print for a cassette: the recorded answers, step by step. */
function faithfulOutput(cassette: string, sdk: string): ClientOutput {
  const exchanges = recordedExchanges(cassette);
  const era = cassetteEra(exchanges);
  const opening = exchanges.find((e) =>
    e.method === (era === "modern" ? "server/discover" : "initialize")
  )!;
  const result = opening.answer.result as Record<string, unknown>;
  const meta = (opening.params as { _meta?: Record<string, unknown> })._meta ?? {};
  const used = new Set<unknown>();
  const steps: ClientOutput["steps"] = {};
  for (const step of loadSession(SESSION)) {
    const recorded = exchanges.find((e) =>
      !used.has(e) && e.method === step.method &&
      JSON.stringify((e.params as { name?: string; uri?: string }).name ?? null) ===
        JSON.stringify((step.params as { name?: string } | undefined)?.name ?? null)
    )!;
    used.add(recorded);
    steps[step.name] = structuredClone(recorded.answer) as ClientOutput["steps"][string];
  }
  return {
    sdk,
    transport: "stdio",
    era,
    initialize: era === "modern"
      ? {
        serverInfo: (result._meta as Record<string, unknown>)["io.modelcontextprotocol/serverInfo"],
        protocolVersion: meta["io.modelcontextprotocol/protocolVersion"] as string,
      }
      : {
        serverInfo: result.serverInfo,
        protocolVersion: result.protocolVersion as string,
      },
    steps,
  };
}

function check(cassette: string, output: ClientOutput) {
  return checkClientOutput(cassette, loadSession(SESSION), output, loadLimits(LIMITS, output.sdk));
}

test("the golden cassettes' eras are read off their frames", () => {
  assert.equal(cassetteEra(recordedExchanges(GOLDEN)), "legacy");
  assert.equal(cassetteEra(recordedExchanges(MODERN)), "modern");
});

test("a client that shows every recorded answer passes, in either era", () => {
  for (const cassette of [GOLDEN, MODERN]) {
    const report = check(cassette, faithfulOutput(cassette, "python mcp 2.3.0"));
    assert.deepEqual(report.problems, []);
    assert.ok(report.compared > 50, `only ${report.compared} values compared`);
  }
});

test("a client that opened a modern cassette's session in the legacy era fails", () => {
  const output = faithfulOutput(MODERN, "go go-sdk v1.8.0");
  output.era = "legacy";
  assert.deepEqual(check(MODERN, output).problems, [
    "era: the cassette is modern, the client connected as legacy",
  ]);
});

test("a value that differs from the recording fails, naming the step and field", () => {
  const output = faithfulOutput(MODERN, "rust rmcp 3.11.0");
  const sum = output.steps.sum.result as { content: { text: string }[] };
  sum.content[0].text = "The sum of 2 and 40 is 43.";
  const report = check(MODERN, output);
  assert.equal(report.ok, false);
  assert.match(
    report.problems[0],
    /^sum\.content\[0\]\.text: recorded "The sum of 2 and 40 is 42\."/,
  );
});

test("a dropped field passes only for the SDK sdk_limits.json lists it for", () => {
  const dropResultType = (sdk: string) => {
    const output = faithfulOutput(MODERN, sdk);
    for (const step of Object.values(output.steps)) {
      delete (step.result as Record<string, unknown> | undefined)?.resultType;
    }
    return check(MODERN, output);
  };
  const v2 = dropResultType("typescript @modelcontextprotocol/client 2.4.0");
  assert.deepEqual(v2.problems, []);
  assert.ok(v2.dropped.includes("tools.resultType"));
  const v1 = dropResultType("typescript @modelcontextprotocol/sdk 1.32.2");
  assert.ok(v1.problems.some((p) => p.startsWith('tools.resultType: recorded "complete"')));
});

test("an empty list an SDK leaves out counts as a zero value", () => {
  const output = faithfulOutput(MODERN, "go go-sdk v1.8.0");
  const prompts = output.steps.prompts.result as { prompts: Record<string, unknown>[] };
  assert.deepEqual(prompts.prompts[0].arguments, []);
  delete prompts.prompts[0].arguments;
  const report = check(MODERN, output);
  assert.deepEqual(report.problems, []);
  assert.ok(report.dropped.includes("prompts.prompts[0].arguments"));
});
