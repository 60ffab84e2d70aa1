/**
 * Files are read in 16 KiB chunks: a first line longer than that, ours or
 * another tool's, is still told by its format.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { loadCassette } from "../../src/cassette/reader.ts";
import { FOREIGN, ROOT, tempDir } from "../helpers.ts";

test("our header longer than a read chunk: the cassette loads", async () => {
  const source = path.join(ROOT, "tests/interop/golden/everything.cassette.jsonl");
  const [header, ...rest] = readFileSync(source, "utf8").split("\n");
  const long = { ...JSON.parse(header), meta: { note: "x".repeat(100_000) } };
  const file = path.join(tempDir(), "long-header.cassette.jsonl");
  writeFileSync(file, [JSON.stringify(long), ...rest].join("\n"));
  const cassette = await loadCassette(file);
  assert.equal((cassette.header.meta as { note: string }).note.length, 100_000);
  assert.equal(cassette.entries.length, (await loadCassette(source)).entries.length);
});

test("another tool's one-line document longer than a read chunk is imported", async () => {
  const source = path.join(FOREIGN, "python-mcp-cassette/session.v3.mcp.json");
  const document = JSON.parse(readFileSync(source, "utf8"));
  const file = path.join(tempDir(), "one-line.mcp.json");
  // One line, with its own keys further than 16 KiB from the start.
  writeFileSync(file, JSON.stringify({ padding: "y".repeat(40_000), ...document }));
  const imported = await loadCassette(file);
  const expected = await loadCassette(source);
  assert.equal(imported.importedFrom, expected.importedFrom);
  assert.equal(imported.entries.length, expected.entries.length);
});
