/**
 * check on its happy path against servers built with the official SDKs (v1
 * and v2), not our own server kit: the whole surface is seen and passes,
 * and a replay of the recording prints the same report.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { CLI } from "../helpers.ts";
import { cli, tempDir } from "../verify/_helpers.ts";
import { SDK_SERVERS, sdkServer } from "../fixtures/sdk_servers/mod.ts";

for (const server of SDK_SERVERS) {
  test(`check passes a server built with the official SDK ${server.sdk} and sees all of it`, async () => {
    const result = await cli(["check", "--json", "--", ...sdkServer(server.file)]);
    assert.equal(result.code, 0, result.stderr + result.stdout);
    const report = JSON.parse(result.stdout);
    assert.equal(report.result, "PASS");
    assert.deepEqual(report.server, { name: server.name, version: server.version });
    assert.equal(report.protocolVersion ?? report.protocol, "2025-11-25");
    assert.deepEqual(report.counts, { tools: 2, resources: 1, resourceTemplates: 0, prompts: 1 });
    assert.deepEqual(report.findings, []);
  });

  test(`check prints the same report live and replayed: official SDK ${server.sdk}`, async () => {
    const cassette = join(tempDir(), `${server.sdk}.cassette.jsonl`);
    const live = await cli([
      "check",
      "--",
      ...CLI,
      "record",
      "-o",
      cassette,
      "--",
      ...sdkServer(server.file),
    ]);
    assert.equal(live.code, 0, live.stderr);
    assert.match(live.stdout, new RegExp(`^server: ${server.name} ${server.version}$`, "m"));
    const replayed = await cli(["check", "--", ...CLI, "replay", cassette]);
    assert.equal(replayed.code, 0, replayed.stderr);
    assert.equal(replayed.stdout, live.stdout);
  });
}
