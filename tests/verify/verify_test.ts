import { test } from "node:test";
import assert from "node:assert/strict";
import { createServer } from "node:net";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { headerFor } from "../../src/verify/update.ts";
import { join } from "node:path";
import { toolCall } from "../../src/demo/record_script.ts";
import { cli, fixture, recordFixture, tempDir, verifyJson } from "./_helpers.ts";

interface Regression {
  kind: string;
  path: string;
  before?: unknown;
  after?: unknown;
  note?: string;
}
interface Exchange {
  index: number;
  method: string;
  target?: string;
  status: string;
  regressions: Regression[];
}

let shared: Promise<string> | undefined;
/** One recording of the base fixture: initialize, tools/list, stats (#3), echo (#4). */
function baseCassette(): Promise<string> {
  return shared ??= recordFixture();
}

function exchange(report: { exchanges: Exchange[] }, index: number): Exchange {
  const found = report.exchanges.find((candidate) => candidate.index === index);
  assert.ok(found, `no exchange #${index}`);
  return found;
}

test("verify against the same server: every exchange passes despite timestamps, UUIDs and _meta", async () => {
  const { code, report } = await verifyJson(await baseCassette(), fixture("base"), [
    "--fail-on-regression",
  ]);
  assert.equal(code, 0);
  assert.deepEqual(report.exchanges.map((e: Exchange) => `${e.index} ${e.method} ${e.status}`), [
    "1 initialize pass",
    "2 tools/list pass",
    "3 tools/call pass",
    "4 tools/call pass",
  ]);
  assert.equal(report.grade.letter, "A");
  assert.equal(report.grade.score, 100);
});

test("value-change: a number in JSON text content, with path and before → after", async () => {
  const { report } = await verifyJson(await baseCassette(), fixture("value"));
  const stats = exchange(report, 3);
  assert.equal(stats.status, "fail");
  assert.deepEqual(stats.regressions, [{
    kind: "value-change",
    path: "$.result.content[0].text.count",
    before: 3,
    after: 4,
  }]);
  assert.equal(exchange(report, 4).status, "pass");
  // 25 + 45 × ¾ + 20 + 10
  assert.equal(report.grade.score, 88.8);
  assert.equal(report.grade.letter, "B");
});

test("structure-change: a renamed key is one removed and one added", async () => {
  const { report } = await verifyJson(await baseCassette(), fixture("structure"));
  const kinds = exchange(report, 3).regressions.map((r: Regression) =>
    `${r.kind} ${r.path} ${r.note}`
  );
  assert.deepEqual(kinds, [
    "structure-change $.result.content[0].text.count key removed",
    "structure-change $.result.content[0].text.total key added",
  ]);
  assert.equal(report.kinds["structure-change"], 1);
  assert.ok(report.grade.dimensions.structuralStability < 1);
});

test("structure-change: a type flip names both types", async () => {
  const { report } = await verifyJson(await baseCassette(), fixture("type"));
  const [regression] = exchange(report, 3).regressions;
  assert.equal(regression.kind, "structure-change");
  assert.equal(regression.note, "type number → string");
  assert.equal(regression.before, 3);
  assert.equal(regression.after, "3");
});

test("ordering-change, and --allow-reorder accepts it", async () => {
  const cassette = await baseCassette();
  const strict = await verifyJson(cassette, fixture("ordering"));
  const [regression] = exchange(strict.report, 3).regressions;
  assert.equal(regression.kind, "ordering-change");
  assert.equal(regression.path, "$.result.content[0].text.items");
  assert.deepEqual(regression.after, ["gamma", "beta", "alpha"]);
  const relaxed = await verifyJson(cassette, fixture("ordering"), ["--allow-reorder"]);
  assert.equal(exchange(relaxed.report, 3).status, "pass");
  assert.equal(relaxed.report.grade.letter, "A");
});

test("error-status-change: a result that became an error", async () => {
  const { report } = await verifyJson(await baseCassette(), fixture("error"));
  const [regression] = exchange(report, 3).regressions;
  assert.equal(regression.kind, "error-status-change");
  assert.equal(regression.before, "result");
  assert.equal(regression.after, "error -32603: stats backend unavailable");
  assert.equal(report.grade.dimensions.errorParity, 0.75);
});

test("--ignore-path drops a path (with [] for any index) from the comparison", async () => {
  const cassette = await baseCassette();
  const ignored = await verifyJson(cassette, fixture("value"), [
    "--ignore-path",
    "result.content[].text.count",
  ]);
  assert.equal(exchange(ignored.report, 3).status, "pass");
  const whole = await verifyJson(cassette, fixture("structure"), [
    "--ignore-path",
    "$.result.content[].text",
  ]);
  assert.equal(whole.report.failed, 0);
  const other = await verifyJson(cassette, fixture("value"), [
    "--ignore-path",
    "result.content[].text.items",
  ]);
  assert.equal(exchange(other.report, 3).status, "fail");
});

test("a server that crashes on one call: missing-response, grade capped at D", async () => {
  const calls = [
    { method: "tools/list", params: {} },
    ...Array.from({ length: 7 }, () => toolCall("echo", { text: "x" })),
    toolCall("stats"),
  ];
  const cassette = await recordFixture(calls);
  const { code, report } = await verifyJson(cassette, fixture("crash"), ["--min-grade", "C"]);
  assert.equal(code, 1, "D does not meet --min-grade C");
  const last = exchange(report, 10);
  assert.equal(last.regressions[0].kind, "missing-response");
  assert.match(last.regressions[0].note ?? "", /exited with code 3/);
  assert.ok(report.grade.score >= 80, `score ${report.grade.score} would be a B without the cap`);
  assert.equal(report.grade.letter, "D");
  assert.equal(report.grade.capped, true);
});

test("a request that times out is a missing response (--timeout-ms)", async () => {
  const { report } = await verifyJson(await baseCassette(), fixture("hang"), [
    "--timeout-ms",
    "400",
  ]);
  const [regression] = exchange(report, 3).regressions;
  assert.equal(regression.kind, "missing-response");
  assert.match(regression.note ?? "", /within 400 ms/);
  assert.equal(exchange(report, 4).status, "pass");
});

test("server→client requests are answered from the recording", async () => {
  const cassette = await recordFixture([toolCall("ask")]);
  const recorded = readFileSync(cassette, "utf8");
  assert.match(recorded, /model said 42/);
  const { report } = await verifyJson(cassette, fixture("base"));
  assert.equal(report.failed, 0, JSON.stringify(report.exchanges));
});

test("report formats: console, Markdown, JUnit XML, badge", async () => {
  const dir = tempDir();
  const junit = join(dir, "junit.xml");
  const badge = join(dir, "badge.json");
  const cassette = await baseCassette();
  const console = await cli([
    "verify",
    cassette,
    "--junit",
    junit,
    "--badge",
    badge,
    "--",
    ...fixture("structure"),
  ]);
  assert.equal(console.code, 0, console.stderr);
  assert.match(console.stdout, /^ {2}PASS #1 initialize$/m);
  assert.match(console.stdout, /^ {2}FAIL #3 tools\/call stats {2}structure-change$/m);
  assert.match(console.stdout, /\$\.result\.content\[0\]\.text\.count: key removed, was 3/);
  assert.match(console.stdout, /grade B \(86\.3\/100\)/); // 25 + 45 × ¾ + 20 + 10 × ¾
  assert.ok(!console.stdout.includes("\x1b["), "no colour unless --color");

  const xml = readFileSync(junit, "utf8");
  assertWellFormedXml(xml);
  assert.equal(xml.match(/<testcase /g)?.length, 4);
  assert.equal(xml.match(/<failure /g)?.length, 1);
  const failures = [...xml.matchAll(/failures="(\d+)"/g)].map((match) => Number(match[1]));
  assert.deepEqual(failures, [1, 1]);

  const shield = JSON.parse(readFileSync(badge, "utf8"));
  assert.deepEqual(Object.keys(shield).sort(), ["color", "label", "message", "schemaVersion"]);
  assert.equal(shield.schemaVersion, 1);
  assert.equal(shield.message, "B 86/100");
  assert.equal(shield.color, "green");

  const markdown = await cli(["verify", cassette, "--markdown", "--", ...fixture("structure")]);
  assert.match(markdown.stdout, /^## mcp-cassette verify: grade B \(86\.3\/100\)$/m);
  assert.match(markdown.stdout, /^\| 3 \| `tools\/call stats` \| FAIL: structure-change \|/m);

  const plain = await cli(["verify", cassette, "--", ...fixture("base")], { NO_COLOR: undefined });
  assert.ok(!plain.stdout.includes("\x1b["));
  const coloured = await cli(["verify", cassette, "--color", "--", ...fixture("base")], {
    NO_COLOR: undefined,
  });
  assert.ok(coloured.stdout.includes("\x1b[32mPASS\x1b[0m"), coloured.stdout);
  const vetoed = await cli(["verify", cassette, "--color", "--", ...fixture("base")], {
    NO_COLOR: "1",
  });
  assert.ok(!vetoed.stdout.includes("\x1b["));
});

test("gates: --min-grade and --fail-on-regression", async () => {
  const cassette = await baseCassette();
  assert.equal((await verifyJson(cassette, fixture("value"), ["--min-grade", "A"])).code, 1);
  assert.equal((await verifyJson(cassette, fixture("value"), ["--min-grade", "b"])).code, 0);
  assert.equal((await verifyJson(cassette, fixture("value"), ["--fail-on-regression"])).code, 1);
  assert.equal((await verifyJson(cassette, fixture("value"))).code, 0, "no gate, no failure exit");
  const bad = await cli(["verify", cassette, "--min-grade", "Z", "--", ...fixture("base")]);
  assert.equal(bad.code, 2);
});

test("--dry-run lists what would be sent without starting the server; destructive tools are skipped", async () => {
  const cassette = await recordFixture([
    { method: "tools/list", params: {} },
    toolCall("echo", { text: "a" }),
    toolCall("wipe"),
    toolCall("stats"),
  ]);
  const dry = await cli(["verify", cassette, "--dry-run", "--", "/nonexistent/server"]);
  assert.equal(dry.code, 0, dry.stderr);
  assert.match(dry.stdout, /^ {2}send {3}#1 initialize$/m);
  assert.match(dry.stdout, /^ {2}notify notifications\/initialized$/m);
  assert.match(
    dry.stdout,
    /^ {2}skip {3}#4 tools\/call wipe {2}\(destructive tool \(use --allow-destructive\)\)$/m,
  );
  assert.match(dry.stdout, /^4 request\(s\) would be sent, 1 skipped$/m);
  const allowed = await cli(["verify", cassette, "--dry-run", "--allow-destructive"]);
  assert.match(allowed.stdout, /send {3}#4 tools\/call wipe/);

  const live = await verifyJson(cassette, fixture("base"));
  assert.equal(exchange(live.report, 4).status, "skip");
  assert.equal(live.report.skipped, 1);
  assert.equal(live.report.grade.letter, "A");
  const destructive = await verifyJson(cassette, fixture("base"), ["--allow-destructive"]);
  assert.equal(exchange(destructive.report, 4).status, "pass");
});

test("--update writes a fresh cassette from the live server", async () => {
  const dir = tempDir();
  const cassette = await recordFixture(undefined, dir);
  const update = await cli(["verify", cassette, "--update", "--", ...fixture("value")]);
  assert.equal(update.code, 0, update.stderr);
  const lines = readFileSync(cassette, "utf8").trim().split("\n").map((line) => JSON.parse(line));
  assert.equal(lines[0].format, "mcp-cassette");
  assert.equal(lines[0].server.name, "verify-fixture");
  assert.ok(
    lines.slice(1).every((entry) => entry.type === "message" && typeof entry.t === "number"),
  );
  // Written as the frames came: the header is still the one read from all of them.
  const { created: _written, ...header } = lines[0];
  const { created: _now, ...expected } = headerFor(
    { kind: "stdio", command: fixture("value") },
    lines.slice(1),
  );
  assert.deepEqual(header, expected);
  assert.deepEqual(readdirSync(dir).filter((name) => /partial|pending/.test(name)), []);
  const after = await verifyJson(cassette, fixture("value"));
  assert.equal(after.report.failed, 0, "the updated cassette matches the new build");
});

test("bad input: no client requests, a missing file, an unstartable server", async () => {
  const dir = tempDir();
  const empty = join(dir, "empty.cassette.jsonl");
  writeFileSync(
    empty,
    `${
      JSON.stringify({
        format: "mcp-cassette",
        version: 1,
        recorder: "x",
        created: "2025-01-01T00:00:00Z",
        transport: "stdio",
        server: {},
      })
    }\n` +
      `${
        JSON.stringify({
          type: "message",
          t: 0,
          dir: "c2s",
          msg: { jsonrpc: "2.0", method: "notifications/initialized" },
        })
      }\n`,
  );
  const noRequests = await cli(["verify", empty, "--", ...fixture("base")]);
  assert.equal(noRequests.code, 2);
  assert.match(noRequests.stderr, /holds no client requests/);
  const missing = await cli(["verify", join(dir, "absent.jsonl"), "--", ...fixture("base")]);
  assert.equal(missing.code, 2);
  const unreachable = await cli(["verify", await baseCassette(), "--", "/nonexistent/server"]);
  assert.equal(unreachable.code, 7);
  for (const result of [noRequests, missing, unreachable]) {
    assert.equal(result.stderr.trim().split("\n").length, 1, result.stderr);
    assert.doesNotMatch(result.stderr, /^\s+at /m);
  }
  // A port that was just free: nothing listens, so the connection is refused.
  const port = await new Promise<number>((resolve) => {
    const probe = createServer().listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
  const refused = await cli([
    "verify",
    await baseCassette(),
    "--url",
    `http://127.0.0.1:${port}/mcp`,
  ]);
  assert.equal(refused.code, 7, refused.stderr);
  assert.match(refused.stderr, /Cannot reach/);
  assert.equal(refused.stderr.trim().split("\n").length, 1, refused.stderr);
});

/** A small well-formedness check: tags balance, attributes are quoted, entities are known. */
function assertWellFormedXml(xml: string) {
  const body = xml.replace(/^<\?xml[^?]*\?>\s*/, "");
  const stack: string[] = [];
  const tag =
    /<(\/?)([A-Za-z_][\w.-]*)((?:\s+[\w:-]+="[^"<]*")*)\s*(\/?)>|<|&(?!(?:lt|gt|amp|quot|apos);)/g;
  for (const match of body.matchAll(tag)) {
    assert.ok(match[2] !== undefined, `stray "${match[0]}" at ${match.index}`);
    if (match[4] === "/") continue;
    if (match[1] === "/") assert.equal(stack.pop(), match[2], `unbalanced </${match[2]}>`);
    else stack.push(match[2]);
  }
  assert.deepEqual(stack, []);
}
