/**
 * prune end to end with real parts: the SDK client records server-everything
 * (tool calls, sampling, elicitation, roots, progress), two runs of subsets
 * replay it with `--report`, prune drops what neither asked for, and the
 * pruned cassette answers both runs exactly as the full one did.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { CLI, DENO, EVERYTHING, ROOT, run, tempDir } from "../helpers.ts";

const CLIENT = [DENO, "run", "-A", "--no-check", path.join(ROOT, "tests/prune/_client.ts")];

async function session(steps: string, server: string[]): Promise<{ results: unknown }> {
  const result = await run([...CLIENT, "--steps", steps, "--", ...server], { timeoutMs: 120_000 });
  assert.equal(result.code, 0, result.stderr);
  return JSON.parse(result.stdout);
}

function requestNames(file: string): string[] {
  return readFileSync(file, "utf8").trim().split("\n").slice(1).map((line) => JSON.parse(line))
    .filter((entry) => entry.type === "message" && entry.dir === "c2s" && entry.msg.method)
    .map((entry) => entry.msg.params?.name ?? entry.msg.method);
}

test("a pruned recording of server-everything answers the same SDK runs identically", async () => {
  const dir = tempDir();
  try {
    const cassette = path.join(dir, "everything.cassette.jsonl");
    const all = "tools,echo,sum,sampling,elicitation,roots,progress,prompt";
    const live = await session(all, [...CLI, "record", "-o", cassette, "--", ...EVERYTHING]);
    const runs = { a: "tools,sum,progress", b: "echo,sampling" };
    const before: Record<string, unknown> = {};
    const reports: string[] = [];
    for (const [name, steps] of Object.entries(runs)) {
      const report = path.join(dir, `${name}.report.json`);
      reports.push("--report", report);
      before[name] =
        (await session(steps, [...CLI, "replay", cassette, "--report", report])).results;
      const liveResults = live.results as Record<string, unknown>;
      for (const step of steps.split(",")) {
        assert.deepEqual((before[name] as Record<string, unknown>)[step], liveResults[step], step);
      }
    }
    const full = readFileSync(cassette, "utf8");
    const pruned = path.join(dir, "pruned.cassette.jsonl");
    const result = await run([...CLI, "prune", cassette, ...reports, "-o", pruned]);
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /line \d+: tools\/call trigger-elicitation-request \(\+\d+ lines/);
    assert.match(result.stdout, /line \d+: tools\/call get-roots-list/);
    assert.match(result.stdout, /line \d+: prompts\/get simple-prompt/);
    assert.equal(readFileSync(cassette, "utf8"), full);

    const names = requestNames(pruned);
    for (const gone of ["trigger-elicitation-request", "get-roots-list", "simple-prompt"]) {
      assert.ok(!names.includes(gone), `${gone} is still in the pruned cassette`);
    }
    const text = readFileSync(pruned, "utf8");
    assert.ok(!text.includes("elicitation/create"), "the server's elicitation request stayed");
    assert.ok(!text.includes('"roots/list"'), "the server's roots request stayed");
    assert.ok(text.includes("sampling/createMessage"), "the sampling call's server request went");
    assert.ok(text.includes('"notifications/progress"'), "the progress call's progress went");
    for (
      const keep of ["initialize", "notifications/initialized", "tools/list", "echo", "get-sum"]
    ) {
      assert.ok(names.includes(keep), `${keep} was pruned`);
    }

    for (const [name, steps] of Object.entries(runs)) {
      const again = path.join(dir, `${name}.again.json`);
      const after = await session(steps, [...CLI, "replay", pruned, "--report", again]);
      assert.deepEqual(after.results, before[name], `run ${name} after pruning`);
      const report = JSON.parse(readFileSync(again, "utf8"));
      assert.deepEqual(report.misses, [], `run ${name} missed after pruning`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("a suite's report folder (MCP_CASSETTE_REPORT_DIR) prunes its cassette, and the suite passes on it", async () => {
  const dir = tempDir();
  try {
    const cassette = path.join(dir, "everything.cassette.jsonl");
    await session("tools,echo,sum,elicitation,roots", [
      ...CLI,
      "record",
      "-o",
      cassette,
      "--",
      ...EVERYTHING,
    ]);
    const suite = [
      DENO,
      "run",
      "-A",
      "--no-check",
      path.join(ROOT, "tests/prune/_suite.ts"),
      cassette,
      "tools,sum",
      "echo",
    ];
    const folder = path.join(dir, "reports");
    const first = await run(suite, {
      env: { MCP_CASSETTE_REPORT_DIR: folder },
      timeoutMs: 120_000,
    });
    assert.equal(first.code, 0, first.stderr);
    assert.equal(readdirSync(folder).filter((name) => name.endsWith(".report.json")).length, 2);

    const result = await run([...CLI, "prune", cassette, "--report", folder]);
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /^Removed 2 recorded exchange\(s\)/);
    assert.deepEqual(
      requestNames(cassette).filter((name) =>
        name === "get-roots-list" || name === "trigger-elicitation-request"
      ),
      [],
    );

    const again = await run(suite, {
      env: { MCP_CASSETTE_REPORT_DIR: path.join(dir, "again") },
      timeoutMs: 120_000,
    });
    assert.equal(again.code, 0, again.stderr);
    assert.deepEqual(JSON.parse(again.stdout), JSON.parse(first.stdout));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
