/**
 * CI only: regenerates the other tools' samples with the real tools
 * (scripts/foreign/regenerate.ts installs each from PyPI into venvs of a
 * temporary folder) and checks that what they write today still imports
 * like the committed samples: the same entries, in the same directions, with
 * the same messages once ids, times and the tools' own stamps are set aside.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { rmSync } from "node:fs";
import path from "node:path";
import process from "node:process";
import { loadCassette } from "../../src/cassette/reader.ts";
import type { Cassette } from "../../src/cassette/reader.ts";
import { DENO, FOREIGN, ROOT, run, tempDir } from "../helpers.ts";

const SAMPLES = [
  "python-mcp-cassette/session.v3.mcp.json",
  "mcp-rec/session.jsonl",
  "mcp-rec/two-launches.jsonl",
  "mcp-vcr/session.ndjson",
  "mcp-recorder/session.json",
];

const skip = process.env.CI !== "true"
  ? "installs four tools from PyPI (a minute or more): runs only in CI (CI=true)"
  : "Bun" in globalThis
  ? "runs once per CI run, under Deno"
  : false;
// Deno's report shows a skipped test as "ignored" without the reason: say it here.
if (skip) process.stderr.write(`regenerate_test.ts: skipped: ${skip}\n`);

/** What must not change between two recordings of the same session. */
function shape(cassette: Cassette) {
  return {
    importedFrom: cassette.importedFrom,
    sessions: [...new Set(cassette.entries.map((entry) => entry.session))],
    transport: cassette.header.transport,
    era: cassette.header.era,
    protocolVersion: cassette.header.protocolVersion,
    server: [cassette.header.server.name, cassette.header.server.version],
    entries: cassette.entries.map((entry) =>
      entry.type === "message" ? { dir: entry.dir, msg: entry.msg } : { type: entry.type }
    ),
  };
}

test("the real tools, installed afresh, still write samples that import like the committed ones", {
  skip,
  timeout: 900_000,
}, async () => {
  const out = tempDir("mcp-cassette-regenerate-");
  try {
    const result = await run(
      [
        DENO,
        "run",
        "-A",
        "--no-check",
        path.join(ROOT, "scripts/foreign/regenerate.ts"),
        "--out",
        out,
      ],
      { timeoutMs: 900_000 },
    );
    assert.equal(result.code, 0, result.stderr.slice(-4000));
    for (const sample of SAMPLES) {
      const fresh = await loadCassette(path.join(out, sample));
      const committed = await loadCassette(path.join(FOREIGN, sample));
      assert.deepEqual(shape(fresh), shape(committed), sample);
    }
    for (const yaml of ["mcp-vcr/session.yaml", "vcrpy/initialize.yaml"]) {
      await assert.rejects(
        loadCassette(path.join(out, yaml)),
        /not a cassette of any known format/,
      );
    }
    // server-everything's answers vary (random weather, its own ids), and so do the exchange
    // numbers (the SDK's GET stream opens in a race with its next POST): the outline must not.
    const http = "python-mcp-cassette/everything.http.v3.mcp.json";
    const outline = (cassette: Cassette) =>
      cassette.entries.map((entry) =>
        entry.type === "message"
          ? [entry.dir, (entry.msg as { method?: string }).method ?? "answer"]
          : [entry.type]
      );
    assert.deepEqual(
      outline(await loadCassette(path.join(out, http))),
      outline(await loadCassette(path.join(FOREIGN, http))),
      http,
    );
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
});
