import { test } from "node:test";
import assert from "node:assert/strict";
import { createServer } from "node:net";
import { join } from "node:path";
import { checkToolSchema } from "../../src/check/schema.ts";
import { BROKEN_SCHEMA_SERVER, cli, EVERYTHING, ROOT, tempDir } from "../verify/_helpers.ts";
import { CLI, DENO } from "../helpers.ts";

test("check passes the reference server and reports its surface", async () => {
  const result = await cli(["check", "--", ...EVERYTHING]);
  assert.equal(result.code, 0, result.stderr);
  assert.match(result.stdout, /^server: mcp-servers\/everything \S+$/m);
  assert.match(result.stdout, /^protocol: 2025-11-25$/m);
  const counts = result.stdout.match(
    /tools (\d+), resources (\d+), resource templates (\d+), prompts (\d+)/,
  );
  assert.ok(counts, result.stdout);
  for (const count of counts.slice(1)) {
    assert.ok(Number(count) > 0, `count ${count} in ${counts[0]}`);
  }
  assert.match(result.stdout, /^result: PASS$/m);
});

test("check is deterministic: two runs print the same report, text and JSON", async () => {
  const line = EVERYTHING.map((part) => `'${part}'`).join(" ");
  const [first, second] = [
    await cli(["check", "--stdio", line]),
    await cli(["check", "--stdio", line]),
  ];
  assert.equal(first.code, 0, first.stderr);
  assert.equal(first.stdout, second.stdout);
  const [a, b] = [
    await cli(["check", "--json", "--", ...EVERYTHING]),
    await cli(["check", "--json", "--", ...EVERYTHING]),
  ];
  assert.equal(a.stdout, b.stdout);
  const report = JSON.parse(a.stdout);
  assert.equal(report.result, "PASS");
  assert.ok(report.counts.tools > 0);
  assert.equal(report.server.name, "mcp-servers/everything");
});

test("check fails a server with broken tool schemas and names each mistake", async () => {
  const result = await cli(["check", "--json", "--", ...BROKEN_SCHEMA_SERVER]);
  assert.equal(result.code, 1, result.stderr);
  const report = JSON.parse(result.stdout);
  assert.equal(report.result, "FAIL");
  assert.equal(report.counts.tools, 7);
  assert.equal(report.counts.prompts, null, "prompts are not declared, so not listed");
  const where = (severity: string) =>
    report.findings.filter((f: { severity: string }) => f.severity === severity).map((
      f: { where: string },
    ) => f.where);
  assert.deepEqual(where("error").sort(), [
    'tools["array_root"].inputSchema.type',
    'tools["bad_output"].outputSchema.properties.total.minimum',
    'tools["bad_output"].outputSchema.type',
    'tools["bad_properties"].inputSchema.properties',
    'tools["bad_required"].inputSchema.required[1]',
    'tools["bad_type"].inputSchema.properties.n.type',
  ]);
  assert.deepEqual(where("warning"), ['tools["open_required"].inputSchema.required[0]']);
  const text = await cli(["check", "--", ...BROKEN_SCHEMA_SERVER]);
  assert.equal(text.code, 1);
  assert.match(text.stdout, /^findings: 6 error\(s\), 1 warning\(s\)$/m);
  assert.match(text.stdout, /^result: FAIL$/m);
});

test("check counts every page of a paginated list", async () => {
  const server = [
    DENO,
    "run",
    "-A",
    "--no-check",
    join(ROOT, "tests/fixtures/check/paged_server.ts"),
  ];
  const result = await cli(["check", "--", ...server]);
  assert.equal(result.code, 0, result.stderr);
  assert.match(result.stdout, /surface: tools 7, resources -, resource templates -, prompts 1/);
});

test("check: an unstartable server or a refusing URL exits 7 with one line; no server exits 2", async () => {
  const missing = await cli(["check", "--stdio", "/nonexistent/server --flag"]);
  assert.equal(missing.code, 7);
  assert.equal(missing.stderr.trim().split("\n").length, 1, missing.stderr);
  assert.match(missing.stderr, /Cannot start the server command/);
  // A port that was just free: nothing listens, so the connection is refused.
  const port = await new Promise<number>((resolve) => {
    const probe = createServer().listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
  const url = await cli(["check", "--url", `http://127.0.0.1:${port}/mcp`]);
  assert.equal(url.code, 7, url.stderr);
  assert.equal(url.stderr.trim().split("\n").length, 1, url.stderr);
  const none = await cli(["check"]);
  assert.equal(none.code, 2);
  assert.match(none.stderr, /needs a server/);
});

test("checkToolSchema accepts good schemas and finds structural mistakes", () => {
  assert.deepEqual(
    checkToolSchema({
      type: "object",
      properties: { q: { type: ["string", "null"] } },
      required: ["q"],
    }, "inputSchema"),
    [],
  );
  assert.deepEqual(
    checkToolSchema(
      { type: "object", properties: { a: { anyOf: [{ type: "string" }, true] } } },
      "inputSchema",
    ),
    [],
  );
  const findings = checkToolSchema(
    {
      type: "object",
      properties: { a: { type: "string", minLength: -1, pattern: "(" }, b: { enum: [] } },
      required: "a",
    },
    "inputSchema",
  );
  const paths = findings.map((finding) => `${finding.severity} ${finding.path}`);
  assert.deepEqual(paths.sort(), [
    "error inputSchema.properties.a.minLength",
    "error inputSchema.properties.b.enum",
    "error inputSchema.required",
    "warning inputSchema.properties.a.pattern",
  ]);
  assert.equal(checkToolSchema(undefined, "inputSchema")[0].severity, "error");
});

test("check prints the same report live and against a replay of its own recording", async () => {
  const cassette = join(tempDir(), "everything.cassette.jsonl");
  const recorder = [
    ...CLI,
    "record",
    "-o",
    cassette,
    "--",
    ...EVERYTHING,
  ];
  const live = await cli(["check", "--", ...recorder]);
  assert.equal(live.code, 0, live.stderr);
  const replayed = await cli([
    "check",
    "--",
    ...CLI,
    "replay",
    cassette,
  ]);
  assert.equal(replayed.code, 0, replayed.stderr);
  assert.equal(replayed.stdout, live.stdout);
  // And verify grades the recording against the live server.
  const verified = await cli(["verify", cassette, "--fail-on-regression", "--", ...EVERYTHING]);
  assert.equal(verified.code, 0, verified.stdout + verified.stderr);
  assert.match(verified.stdout, /grade A \(100\.0\/100\)/);
});
