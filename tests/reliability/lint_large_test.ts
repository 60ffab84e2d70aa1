/**
 * `lint` over values as large as the reader accepts: a tool result holding
 * one 8 MB text (token characters only, the shape that overflowed the
 * secret check's regexp), and a structured result nested 20,000 deep. Both
 * are linted to a report (exit 0 or 4), never a crash (exit 70).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { rmSync } from "node:fs";
import path from "node:path";
import { CLI, run } from "../helpers.ts";
import { session, textResult, tool, writeCassette } from "../lint/build.ts";
import { figure } from "./_helpers.ts";

function deep(depth: number): unknown {
  let value: unknown = "leaf";
  for (let i = 0; i < depth; i++) value = { a: value };
  return value;
}

async function lintsWithoutCrash(results: unknown[], what: string): Promise<number> {
  const file = writeCassette(session([tool("big")], results as never));
  try {
    const started = Date.now();
    const lint = await run([...CLI, "lint", "--format", "json", file], { timeoutMs: 240_000 });
    const ms = Date.now() - started;
    assert.ok(
      lint.code === 0 || lint.code === 4,
      `${what}: lint exited ${lint.code}: ${lint.stderr.slice(0, 500)}`,
    );
    assert.doesNotMatch(lint.stderr, /RangeError|Maximum call stack/);
    return ms;
  } finally {
    rmSync(path.dirname(file), { recursive: true, force: true });
  }
}

test("lint handles a tool result holding one 8 MB text", async () => {
  const big = "aB3xY9".repeat(8 * 1024 * 1024 / 6);
  const ms = await lintsWithoutCrash([textResult(big)], "8 MB text");
  figure("lint-large", { textBytes: big.length, ms });
});

test("lint handles a structured result nested 20,000 deep", async () => {
  const ms = await lintsWithoutCrash([
    { content: [{ type: "text", text: "x" }], structuredContent: deep(20_000) },
  ], "20,000 deep");
  figure("lint-deep", { depth: 20_000, ms });
});
