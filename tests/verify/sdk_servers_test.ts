/**
 * verify on its happy path against servers built with the official SDKs (v1
 * and v2), not our own server kit: a recording of every kind of request
 * verifies with grade A against the same server, and the drifted variants'
 * value and structure changes are found where they are.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { recordScript, toolCall } from "../../src/demo/record_script.ts";
import type { ScriptedCall } from "../../src/demo/record_script.ts";
import { tempDir, verifyJson } from "./_helpers.ts";
import { SDK_SERVERS, sdkServer } from "../fixtures/sdk_servers/mod.ts";

/** initialize is #1; then tools/list #2, stats #3, echo #4, resources #5–6, prompts #7–8. */
const CALLS: ScriptedCall[] = [
  { method: "tools/list", params: {} },
  toolCall("stats"),
  toolCall("echo", { text: "hi" }),
  { method: "resources/list", params: {} },
  { method: "resources/read", params: { uri: "note://readme" } },
  { method: "prompts/list", params: {} },
  { method: "prompts/get", params: { name: "greet", arguments: { name: "Ada" } } },
];

interface Exchange {
  index: number;
  method: string;
  status: string;
  regressions: { kind: string; path: string; before?: unknown; after?: unknown }[];
}

for (const server of SDK_SERVERS) {
  const recorded = (async () => {
    const cassette = join(tempDir(), `${server.sdk}.cassette.jsonl`);
    await recordScript(sdkServer(server.file), CALLS, cassette);
    return cassette;
  })();
  // Not left unhandled before the first test awaits it.
  recorded.catch(() => {});

  test(`verify against the same official SDK ${server.sdk} server: every exchange passes, grade A`, async () => {
    const { code, report } = await verifyJson(await recorded, sdkServer(server.file), [
      "--fail-on-regression",
    ]);
    assert.equal(code, 0, JSON.stringify(report.exchanges));
    assert.deepEqual(report.exchanges.map((e: Exchange) => `${e.index} ${e.method} ${e.status}`), [
      "1 initialize pass",
      "2 tools/list pass",
      "3 tools/call pass",
      "4 tools/call pass",
      "5 resources/list pass",
      "6 resources/read pass",
      "7 prompts/list pass",
      "8 prompts/get pass",
    ]);
    assert.equal(report.grade.letter, "A");
  });

  test(`verify finds an official SDK ${server.sdk} server's value and structure changes`, async () => {
    const value = await verifyJson(await recorded, sdkServer(server.file, "value"));
    const stats = (report: { exchanges: Exchange[] }) =>
      report.exchanges.find((e) => e.index === 3)!;
    assert.deepEqual(stats(value.report).regressions, [{
      kind: "value-change",
      path: "$.result.content[0].text.count",
      before: 3,
      after: 4,
    }]);
    const structure = await verifyJson(await recorded, sdkServer(server.file, "structure"));
    assert.deepEqual(stats(structure.report).regressions.map((r) => `${r.kind} ${r.path}`), [
      "structure-change $.result.content[0].text.count",
      "structure-change $.result.content[0].text.total",
    ]);
    for (const { report } of [value, structure]) {
      assert.deepEqual(
        report.exchanges.filter((e: Exchange) => e.status !== "pass").map((e: Exchange) => e.index),
        [3],
        "only the stats call drifted",
      );
    }
  });
}
