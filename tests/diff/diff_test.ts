import { test } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import { diffCassettes, diffItem, diffSchema } from "../../src/diff/mod.ts";
import type { JsonObject } from "../../src/jsonrpc/messages.ts";
import { CLI, ROOT, run } from "../helpers.ts";
import { cassette, session, tool } from "../lint/build.ts";

const object = (properties: JsonObject, required: string[] = []): JsonObject => ({
  type: "object",
  properties,
  required,
});
const summary = (changes: { path: string; what: string; breaking: boolean }[]) =>
  changes.map((c) => [c.path, c.what, c.breaking]);

test("input schema: new required parameter breaks, new optional one does not", () => {
  const before = object({ city: { type: "string" } }, ["city"]);
  assert.deepEqual(
    summary(
      diffSchema(
        before,
        object({ city: { type: "string" }, days: { type: "integer" } }, ["city", "days"]),
        "in",
        "input",
      ),
    ),
    [
      ["in.properties.days", "new required parameter", true],
    ],
  );
  assert.deepEqual(
    summary(
      diffSchema(
        before,
        object({ city: { type: "string" }, days: { type: "integer" } }, ["city"]),
        "in",
        "input",
      ),
    ),
    [
      ["in.properties.days", "new optional parameter", false],
    ],
  );
});

test("input schema: removal, required flips, type changes, enums, bounds", () => {
  const base = object({
    a: { type: "integer", minimum: 1 },
    b: { type: "string", enum: ["x", "y"] },
  }, ["a"]);
  assert.deepEqual(
    summary(diffSchema(base, object({ a: { type: "integer", minimum: 1 } }, ["a"]), "in", "input")),
    [
      ["in.properties.b", "parameter removed", true],
    ],
  );
  assert.deepEqual(
    summary(
      diffSchema(
        base,
        object({ a: { type: "integer", minimum: 1 }, b: { type: "string", enum: ["x", "y"] } }, [
          "a",
          "b",
        ]),
        "in",
        "input",
      ),
    ),
    [
      ["in.properties.b", "parameter became required", true],
    ],
  );
  assert.deepEqual(
    summary(
      diffSchema(
        base,
        object({ a: { type: "string", minimum: 1 }, b: { type: "string", enum: ["x", "y"] } }, [
          "a",
        ]),
        "in",
        "input",
      ),
    ),
    [
      ["in.properties.a.type", "type changed", true],
    ],
  );
  assert.deepEqual(
    summary(
      diffSchema(
        base,
        object({ a: { type: "number", minimum: 1 }, b: { type: "string", enum: ["x", "y"] } }, [
          "a",
        ]),
        "in",
        "input",
      ),
    ),
    [
      ["in.properties.a.type", "type widened", false],
    ],
  );
  assert.deepEqual(
    summary(
      diffSchema(
        base,
        object(
          { a: { type: "integer", minimum: 1 }, b: { type: "string", enum: ["x", "y", "z"] } },
          ["a"],
        ),
        "in",
        "input",
      ),
    ),
    [
      ["in.properties.b.enum", 'enum values added: "z"', false],
    ],
  );
  assert.deepEqual(
    summary(
      diffSchema(
        base,
        object({ a: { type: "integer", minimum: 1 }, b: { type: "string", enum: ["x"] } }, ["a"]),
        "in",
        "input",
      ),
    ),
    [
      ["in.properties.b.enum", 'enum values removed: "y"', true],
    ],
  );
  assert.deepEqual(
    summary(
      diffSchema(
        base,
        object({ a: { type: "integer", minimum: 5 }, b: { type: "string", enum: ["x", "y"] } }, [
          "a",
        ]),
        "in",
        "input",
      ),
    ),
    [
      ["in.properties.a.minimum", "minimum tightened", true],
    ],
  );
  assert.deepEqual(
    summary(
      diffSchema(
        base,
        object({
          a: { type: "integer", minimum: 0, description: "count" },
          b: { type: "string", enum: ["x", "y"] },
        }, ["a"]),
        "in",
        "input",
      ),
    ),
    [
      ["in.properties.a.minimum", "minimum relaxed", false],
      ["in.properties.a.description", "description changed", false],
    ],
  );
});

test("output schema: removing a field breaks readers, adding one does not", () => {
  const base = object({ temp: { type: "number" } }, ["temp"]);
  assert.deepEqual(summary(diffSchema(base, object({}, []), "out", "output")), [[
    "out.properties.temp",
    "field removed",
    true,
  ]]);
  assert.deepEqual(
    summary(
      diffSchema(
        base,
        object({ temp: { type: "number" }, wind: { type: "number" } }, ["temp"]),
        "out",
        "output",
      ),
    ),
    [
      ["out.properties.wind", "new field", false],
    ],
  );
  assert.deepEqual(
    summary(diffSchema(base, object({ temp: { type: "number" } }, []), "out", "output")),
    [
      ["out.properties.temp", "field became optional", true],
    ],
  );
});

test("prompts: new required argument breaks; descriptions never do", () => {
  const before = { name: "p", arguments: [{ name: "city", required: true }] };
  const changes = diffItem("prompt", before, {
    name: "p",
    description: "new",
    arguments: [{ name: "city", required: true }, { name: "day", required: true }],
  });
  assert.deepEqual(summary(changes), [["description", "description added", false], [
    "arguments.day",
    "new required argument",
    true,
  ]]);
});

test("cassettes: added, removed, changed; --tools-only; unlisted kinds are not compared", () => {
  const old = cassette(session([tool("a"), tool("b")]), undefined, "old.jsonl");
  const now = cassette(
    session([tool("a", "Does a thing better."), tool("c")]),
    undefined,
    "new.jsonl",
  );
  const diff = diffCassettes(old, now);
  assert.equal(diff.changed, true);
  assert.equal(diff.breaking, true);
  assert.deepEqual(diff.items.map((item) => [item.status, item.key, item.breaking]), [
    ["changed", "a", false],
    ["removed", "b", true],
    ["added", "c", false],
  ]);
  assert.equal(diffCassettes(old, old).changed, false);
  assert.deepEqual(diffCassettes(old, now).unlisted, []);
});

test("CLI: the golden v2 grew an optional parameter: exit 5, non-breaking; same file: exit 0", async () => {
  const golden = path.join(ROOT, "examples/cassettes");
  const moved = await run([
    ...CLI,
    "diff",
    path.join(golden, "weather.cassette.jsonl"),
    path.join(golden, "weather-v2.cassette.jsonl"),
    "--tools-only",
  ]);
  assert.equal(moved.code, 5, moved.stderr);
  assert.match(moved.stdout, /~ tool get_forecast \(changed, non-breaking\)/);
  assert.match(moved.stdout, /inputSchema\.properties\.units: new optional parameter/);
  const same = await run([
    ...CLI,
    "diff",
    path.join(golden, "weather.cassette.jsonl"),
    path.join(golden, "weather.cassette.jsonl"),
  ]);
  assert.equal(same.code, 0);
  assert.match(same.stdout, /surface unchanged/);
  const json = await run([
    ...CLI,
    "diff",
    path.join(golden, "weather.cassette.jsonl"),
    path.join(golden, "weather-v2.cassette.jsonl"),
    "--format",
    "json",
  ]);
  assert.equal(json.code, 5);
  assert.equal(JSON.parse(json.stdout).items[0].changes[0].breaking, false);
  assert.equal((await run([...CLI, "diff", path.join(golden, "weather.cassette.jsonl")])).code, 2);
});
