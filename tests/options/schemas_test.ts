/**
 * The JSON Schemas in `schemas/`: generated from the option schema and the
 * format definitions (a drift fails), each a valid draft 2020-12 schema, and
 * every example, fixture and doc snippet of the four kinds passes its schema
 * under a real validator (ajv) and the project's own loader alike, while a
 * deliberately broken file of each kind fails both.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import * as fs from "node:fs";
import path from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import type { ValidateFunction } from "ajv/dist/2020.js";
import { parse as parseToml } from "smol-toml";
import { renderSchema, SCHEMA_DIR, SCHEMAS } from "../../scripts/gen_schemas.ts";
import { DIALECT } from "../../scripts/schemas/common.ts";
import { parseJsonc } from "../../src/json/jsonc.ts";
import { CONFIG_SECTIONS } from "../../src/options/sections.ts";
import { parsePlaybook } from "../../src/script/playbook.ts";
import { parseFaultOverlay } from "../../src/faults/overlay.ts";
import { ENTRY_TYPES } from "../../src/cassette/format.ts";
import { ROOT } from "../helpers.ts";

type Kind = "config" | "playbook" | "faults" | "cassette";
const FILES: Record<Kind, string> = {
  config: "config.schema.json",
  playbook: "playbook.schema.json",
  faults: "faults.schema.json",
  cassette: "cassette-line.schema.json",
};

/** One thing to validate: where it is, and its value. */
interface Sample {
  where: string;
  value: unknown;
  text: string;
}

function validators(): Record<Kind, ValidateFunction> {
  const ajv = new Ajv2020({ allErrors: true, strictTypes: false, strictRequired: false });
  const out = {} as Record<Kind, ValidateFunction>;
  for (const [kind, file] of Object.entries(FILES) as [Kind, string][]) {
    out[kind] = ajv.compile(JSON.parse(fs.readFileSync(path.join(SCHEMA_DIR, file), "utf8")));
  }
  return out;
}

/** The fenced blocks of the project's Markdown, with their language and line. */
function docBlocks(): { where: string; lang: string; body: string }[] {
  const files = ["README.md", ...fs.readdirSync(path.join(ROOT, "docs")).map((f) => `docs/${f}`)]
    .filter((file) => file.endsWith(".md"));
  const blocks: { where: string; lang: string; body: string }[] = [];
  for (const file of files) {
    const lines = fs.readFileSync(path.join(ROOT, file), "utf8").split("\n");
    for (let i = 0; i < lines.length; i++) {
      const open = lines[i].match(/^```(\w*)\s*$/);
      if (!open || open[1] === "") continue;
      const end = lines.indexOf("```", i + 1);
      blocks.push({
        where: `${file}:${i + 1}`,
        lang: open[1],
        body: lines.slice(i + 1, end).join("\n"),
      });
      i = end;
    }
  }
  return blocks;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** Which of the four kinds a parsed snippet is, if any. */
function kindOf(value: unknown, toml: boolean): Kind | undefined {
  if (!isRecord(value)) return undefined;
  if ("steps" in value) return "playbook";
  if (toml) {
    const keys = Object.keys(value);
    return keys.length > 0 &&
        keys.every((key) => (CONFIG_SECTIONS as readonly string[]).includes(key))
      ? "config"
      : undefined;
  }
  if ("faults" in value) return "faults";
  if (value.format === "mcp-cassette") return "cassette";
  if (typeof value.type === "string" && ENTRY_TYPES.has(value.type) && "t" in value) {
    return "cassette";
  }
  return undefined;
}

function docSamples(): Record<Kind, Sample[]> {
  const samples: Record<Kind, Sample[]> = { config: [], playbook: [], faults: [], cassette: [] };
  for (const block of docBlocks()) {
    const toml = block.lang === "toml";
    if (!toml && block.lang !== "json" && block.lang !== "jsonc") continue;
    let value: unknown;
    if (toml) {
      try {
        value = parseToml(block.body);
      } catch {
        continue;
      }
    } else {
      const parsed = parseJsonc(block.body);
      if (!parsed.ok) continue;
      value = parsed.value;
    }
    const kind = kindOf(value, toml);
    if (kind) samples[kind].push({ where: block.where, value, text: block.body });
  }
  return samples;
}

function filesUnder(dir: string, pattern: RegExp): string[] {
  const out: string[] = [];
  const walk = (folder: string) => {
    for (const entry of fs.readdirSync(path.join(ROOT, folder), { withFileTypes: true })) {
      const child = `${folder}/${entry.name}`;
      if (entry.isDirectory()) walk(child);
      else if (pattern.test(entry.name)) out.push(child);
    }
  };
  walk(dir);
  return out.sort();
}

/** Every line of every cassette of ours among the examples and fixtures. */
function cassetteLines(): Sample[] {
  const files = [
    ...filesUnder("examples", /\.jsonl$/),
    ...filesUnder("tests/interop/golden", /\.jsonl$/),
  ];
  return files.flatMap((file) =>
    fs.readFileSync(path.join(ROOT, file), "utf8").split("\n").filter((line) => line !== "").map(
      (line, i) => ({ where: `${file}:${i + 1}`, value: JSON.parse(line), text: line }),
    )
  );
}

function playbookFiles(): Sample[] {
  return filesUnder("tests/script/playbooks", /\.(jsonc?|toml)$/).map((file) => {
    const text = fs.readFileSync(path.join(ROOT, file), "utf8");
    const value = file.endsWith(".toml")
      ? parseToml(text)
      : (parseJsonc(text) as { value: unknown }).value;
    return { where: file, value, text };
  });
}

function errorsOf(validate: ValidateFunction, value: unknown): string {
  return validate(value) ? "" : JSON.stringify(validate.errors?.slice(0, 3));
}

test("schemas/ is what scripts/gen_schemas.ts writes, each a draft 2020-12 schema", () => {
  for (const name of Object.keys(SCHEMAS)) {
    const file = path.join(SCHEMA_DIR, name);
    assert.equal(fs.readFileSync(file, "utf8"), renderSchema(name), `schemas/${name} drifted`);
    assert.equal(JSON.parse(fs.readFileSync(file, "utf8")).$schema, DIALECT);
  }
  validators(); // compiles each, strict about unknown keywords
});

test("every doc snippet, example and fixture of the four kinds passes its schema", () => {
  const validate = validators();
  const samples = docSamples();
  samples.playbook.push(...playbookFiles());
  samples.cassette.push(...cassetteLines());
  // The finder itself must find something of each kind, or this test proves nothing.
  assert.ok(samples.config.length >= 2, `config snippets: ${samples.config.length}`);
  assert.ok(samples.playbook.length >= 3, `playbooks: ${samples.playbook.length}`);
  assert.ok(samples.faults.length >= 2, `overlays: ${samples.faults.length}`);
  assert.ok(samples.cassette.length >= 100, `cassette lines: ${samples.cassette.length}`);
  for (const [kind, list] of Object.entries(samples) as [Kind, Sample[]][]) {
    for (const sample of list) {
      assert.equal(errorsOf(validate[kind], sample.value), "", `${sample.where} (${kind})`);
    }
  }
});

test("the loaders take what the schemas take: the doc playbooks and overlays load", async () => {
  const samples = docSamples();
  for (const sample of [...samples.playbook, ...playbookFiles()]) {
    const toml = !sample.text.trimStart().startsWith("{");
    await parsePlaybook(sample.text, toml ? "doc.toml" : "doc.jsonc");
  }
  for (const sample of samples.faults) parseFaultOverlay(sample.text, sample.where);
});

test('a file carrying "$schema" loads: playbooks and overlays ignore the key', async () => {
  const url = "./schemas/playbook.schema.json";
  const playbook = await parsePlaybook(
    `{"$schema": "${url}", "steps": [{"ping": true}]}`,
    "p.jsonc",
  );
  assert.equal(playbook.steps.length, 1);
  const overlay = parseFaultOverlay(
    `{"$schema": "./schemas/faults.schema.json", "faults": [{"match": {"tool": "x"}, "fault": {"kind": "timeout"}}]}`,
    "f.jsonc",
  );
  assert.equal(overlay.entries.length, 1);
  const validate = validators();
  assert.equal(errorsOf(validate.playbook, { $schema: url, steps: [{ ping: true }] }), "");
});

test("a broken file of each kind fails its schema, and the loader refuses it too", async () => {
  const validate = validators();
  const broken: [Kind, unknown][] = [
    ["config", { replay: { strcit: true } }],
    ["config", { replay: { "max-streams": true } }],
    ["config", { replay: { pace: "fast" } }],
    ["config", { replays: {} }],
    ["playbook", { steps: [{ cal: "echo" }] }],
    ["playbook", { steps: [] }],
    ["playbook", { steps: [{ call: "echo", list: "tools" }] }],
    ["faults", { faults: [{ match: { tool: "x" }, fault: { kind: "explode" } }] }],
    ["faults", { faults: [{ match: { tools: "x" }, fault: { kind: "timeout" } }] }],
    ["faults", { faults: [{ match: { nth: 2 }, fault: { kind: "timeout" } }] }],
    ["cassette", { type: "message", t: "soon", dir: "c2s", msg: {} }],
    ["cassette", { type: "message", t: 1, dir: "sideways", msg: {} }],
    ["cassette", {
      format: "mcp-cassette",
      version: 99,
      recorder: "x",
      created: "x",
      transport: "stdio",
      server: {},
    }],
  ];
  for (const [kind, value] of broken) {
    assert.equal(validate[kind](value), false, `${kind} schema took ${JSON.stringify(value)}`);
  }
  await assert.rejects(
    parsePlaybook(`{"steps": [{"cal": "echo"}]}`, "p.jsonc"),
    /unknown step kind/,
  );
  assert.throws(
    () =>
      parseFaultOverlay(
        `{"faults": [{"match": {"tool": "x"}, "fault": {"kind": "explode"}}]}`,
        "f",
      ),
    /unknown fault kind/,
  );
});
