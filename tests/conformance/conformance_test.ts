/**
 * The official conformance suite (`@modelcontextprotocol/conformance`, every
 * server scenario of `--suite all`) against our conformance fixture, for
 * spec versions 2025-11-25 and 2026-07-28, three times over: live, through
 * `record --url`, and against `replay --listen` of that recording. Every
 * check's outcome (scenario, check id, status) must be the same in all
 * three runs, and the live run must have no failures.
 *
 * The suite opens a session (or a stateless exchange) per scenario and runs
 * the scenarios in a fixed order, so the replay sees them in the order they
 * were recorded. Messages and timestamps may differ; statuses may not.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { CLI, DENO, ROOT, run, tempDir } from "../helpers.ts";
import { startBackground, URL_LINE } from "../http/http_helpers.ts";

const CONFORMANCE = path.join(ROOT, "node_modules/@modelcontextprotocol/conformance/dist/index.js");
const FIXTURE = [
  DENO,
  "run",
  "-A",
  "--no-check",
  path.join(ROOT, "tests/fixtures/conformance/conformance_server.ts"),
  "0",
];
const SPEC_VERSIONS = ["2025-11-25", "2026-07-28"];

/** One check's outcome, without its message. */
interface Outcome {
  scenario: string;
  check: string;
  status: string;
}

/** Runs every server scenario for `specVersion` against `url`; resolves with the outcomes, sorted. */
async function conformance(url: string, specVersion: string): Promise<Outcome[]> {
  const out = tempDir("mcp-cassette-conformance-");
  // Node 20 lacks fs.globSync, which the suite needs: run it on Deno.
  const result = await run([
    DENO,
    "run",
    "-A",
    CONFORMANCE,
    "server",
    "--url",
    url,
    "--spec-version",
    specVersion,
    "--suite",
    "all",
    "-o",
    out,
  ], {
    timeoutMs: 120_000,
  });
  assert.ok(
    result.stdout.includes("SUMMARY") || result.stderr.includes("SUMMARY"),
    `conformance did not finish:\n${result.stderr}`,
  );
  return readOutcomes(out);
}

/** Reads `<dir>/server-<scenario>-<timestamp>/checks.json` into sorted outcomes. */
function readOutcomes(dir: string): Outcome[] {
  const outcomes: Outcome[] = [];
  for (const entry of readdirSync(dir)) {
    const file = path.join(dir, entry, "checks.json");
    if (!existsSync(file)) continue;
    const scenario = entry.replace(/^server-/, "").replace(/-\d{4}-\d\d-\d\dT[\d-]+Z$/, "");
    for (
      const check of JSON.parse(readFileSync(file, "utf8")) as { id: string; status: string }[]
    ) {
      outcomes.push({ scenario, check: check.id, status: check.status });
    }
  }
  const key = (o: Outcome) => `${o.scenario}\u0000${o.check}\u0000${o.status}`;
  return outcomes.sort((a, b) => key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0);
}

/** The outcomes that differ between two runs, for a readable assertion message. */
function difference(a: Outcome[], b: Outcome[]): string {
  const show = (list: Outcome[]) => list.map((o) => `${o.scenario} ${o.check} ${o.status}`);
  const left = show(a);
  const right = show(b);
  const onlyLeft = left.filter((line) => !right.includes(line));
  const onlyRight = right.filter((line) => !left.includes(line));
  return `only in the first: ${JSON.stringify(onlyLeft)}\nonly in the second: ${
    JSON.stringify(onlyRight)
  }`;
}

for (const specVersion of SPEC_VERSIONS) {
  test(`conformance suite ${specVersion}: live, through record --url and from replay --listen, the same outcome for every check`, async () => {
    const cassette = path.join(tempDir(), `conformance-${specVersion}.cassette.jsonl`);
    const server = await startBackground(FIXTURE, URL_LINE);
    let live: Outcome[];
    let recorded: Outcome[];
    try {
      live = await conformance(server.found, specVersion);
      const recorder = await startBackground([
        ...CLI,
        "record",
        "-o",
        cassette,
        "--url",
        server.found,
      ], URL_LINE);
      try {
        recorded = await conformance(recorder.found, specVersion);
      } finally {
        assert.equal(await recorder.stop(), 0, recorder.output());
      }
    } finally {
      await server.stop();
    }

    // The fixture passes every scenario live: nothing failed, nothing was left untested.
    const failed = live.filter((o) => o.status === "FAILURE" || o.status === "WARNING");
    assert.deepEqual(failed, [], "the fixture fails checks live");
    assert.ok(live.length > 50, `too few checks ran live (${live.length})`);

    assert.deepEqual(recorded, live, `record differs from live:\n${difference(live, recorded)}`);

    // Nothing is running upstream now: every answer comes from the cassette.
    const replay = await startBackground(
      [...CLI, "replay", cassette, "--listen", "127.0.0.1:0"],
      URL_LINE,
    );
    let replayed: Outcome[];
    try {
      replayed = await conformance(replay.found, specVersion);
    } finally {
      await replay.stop();
    }
    assert.deepEqual(replayed, live, `replay differs from live:\n${difference(live, replayed)}`);
  });
}
