/**
 * prune over Streamable HTTP with real parts: the SDK client records
 * server-everything through `record --url`, two runs of subsets replay it
 * with `replay --listen --report`, prune drops what neither asked for (with
 * the HTTP exchanges that carried it), and the pruned cassette answers both
 * runs exactly as the full one did.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { CLI, DENO, ROOT, run, tempDir } from "../helpers.ts";
import { startBackground, startEverythingHttp, URL_LINE } from "../http/http_helpers.ts";

const CLIENT = [DENO, "run", "-A", "--no-check", path.join(ROOT, "tests/prune/_client.ts")];

async function session(steps: string, url: string): Promise<Record<string, unknown>> {
  const result = await run([...CLIENT, "--steps", steps, "--url", url], { timeoutMs: 120_000 });
  assert.equal(result.code, 0, result.stderr);
  return JSON.parse(result.stdout).results;
}

async function replayed(cassette: string, steps: string, report: string) {
  const replay = await startBackground(
    [...CLI, "replay", cassette, "--listen", "127.0.0.1:0", "--report", report],
    URL_LINE,
  );
  try {
    return await session(steps, replay.found);
  } finally {
    await replay.stop();
  }
}

test("a pruned HTTP recording of server-everything answers the same SDK runs identically", async () => {
  const dir = tempDir();
  const upstream = await startEverythingHttp();
  try {
    const cassette = path.join(dir, "http.cassette.jsonl");
    const recorder = await startBackground(
      [...CLI, "record", "-o", cassette, "--url", upstream.url],
      URL_LINE,
    );
    const live = await session(
      "tools,echo,sum,sampling,elicitation,roots,progress",
      recorder.found,
    );
    assert.equal(await recorder.stop(), 0, recorder.output());

    const runs = { a: "tools,sum,progress", b: "echo,sampling" };
    const before: Record<string, Record<string, unknown>> = {};
    const reports: string[] = [];
    for (const [name, steps] of Object.entries(runs)) {
      const report = path.join(dir, `${name}.report.json`);
      reports.push("--report", report);
      before[name] = await replayed(cassette, steps, report);
      for (const step of steps.split(",")) assert.deepEqual(before[name][step], live[step], step);
    }
    const pruned = path.join(dir, "pruned.cassette.jsonl");
    const result = await run([...CLI, "prune", cassette, ...reports, "-o", pruned]);
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /tools\/call trigger-elicitation-request \(\+\d+ lines/);
    assert.match(result.stdout, /tools\/call get-roots-list/);
    const entries = readFileSync(pruned, "utf8").trim().split("\n").slice(1).map((l) =>
      JSON.parse(l)
    );
    const called = entries.filter((e) => e.type === "message" && e.msg.method === "tools/call")
      .map((e) => e.msg.params.name);
    assert.deepEqual(called.sort(), [
      "echo",
      "get-sum",
      "trigger-long-running-operation",
      "trigger-sampling-request",
    ]);
    assert.ok(
      !JSON.stringify(entries).includes('"elicitation/create"'),
      "the server's elicitation request stayed",
    );
    // No exchange is left as an empty envelope, and none lost its request or response.
    const shape = (file: string) => {
      const exchanges = new Map<number, { types: Set<string>; messages: number }>();
      for (const line of readFileSync(file, "utf8").trim().split("\n").slice(1)) {
        const entry = JSON.parse(line);
        if (entry.x === undefined) continue;
        const seen = exchanges.get(entry.x) ?? { types: new Set(), messages: 0 };
        seen.types.add(entry.type);
        if (entry.type === "message") seen.messages++;
        exchanges.set(entry.x, seen);
      }
      return exchanges;
    };
    const original = shape(cassette);
    const left = shape(pruned);
    assert.ok(left.size < original.size, `${left.size} of ${original.size} exchanges left`);
    for (const [x, { types, messages }] of left) {
      assert.ok(
        types.has("http-request") && types.has("http-response"),
        `exchange ${x}: ${[...types]}`,
      );
      assert.ok(messages > 0 || original.get(x)!.messages === 0, `exchange ${x} was left empty`);
    }

    for (const [name, steps] of Object.entries(runs)) {
      const again = path.join(dir, `${name}.again.json`);
      assert.deepEqual(
        await replayed(pruned, steps, again),
        before[name],
        `run ${name} after pruning`,
      );
      assert.deepEqual(JSON.parse(readFileSync(again, "utf8")).misses, [], `run ${name} missed`);
    }
  } finally {
    await upstream.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});
