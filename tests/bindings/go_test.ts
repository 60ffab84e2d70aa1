/**
 * The Go door: `go test` of bindings/go/ (the official Go SDK client and
 * server over stdio and HTTP), with the example of docs/go.md added to a
 * copy of the module, against the compiled engine (MCP_CASSETTE_BINARY, or
 * one compiled here). The build cache is bindings/go/.build/ (git-ignored).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { cpSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { ROOT, run, skipTest, tempDir } from "../helpers.ts";
import { hostBinary } from "../dist/_runtimes.ts";

const MODULE = path.join(ROOT, "bindings", "go");

/** The `// name.go` blocks of docs/go.md. */
function docExamples(): Map<string, string> {
  const text = readFileSync(path.join(ROOT, "docs", "go.md"), "utf8");
  const found = new Map<string, string>();
  for (const [, name, body] of text.matchAll(/```go\n\/\/ (\S+\.go)\n([\s\S]*?)```/g)) {
    found.set(name, body);
  }
  return found;
}

test("mcpcassette (Go): go test of the module and docs/go.md's example", async (t) => {
  const go = await run(["go", "version"]).catch(() => undefined);
  if (go?.code !== 0) {
    skipTest(t, "go not found on PATH");
    return;
  }
  const work = tempDir("mcp-cassette-go-");
  const binary = await hostBinary(work);
  const copy = path.join(work, "module");
  cpSync(MODULE, copy, { recursive: true, filter: (from) => !from.includes(".build") });
  const examples = docExamples();
  assert.ok(examples.size >= 1, "docs/go.md has no `// name_test.go` example");
  for (const [name, body] of examples) writeFileSync(path.join(copy, name), body);
  // What the examples call weatherServer: the test binary serving the Go SDK server of the suite.
  writeFileSync(
    path.join(copy, "doc_server_test.go"),
    'package mcpcassette_test\n\nimport "os"\n\nvar weatherServer = []string{os.Args[0], "serve-weather"}\n',
  );
  const result = await run(["go", "test", "-count=1", "-v", "./..."], {
    cwd: copy,
    timeoutMs: 900_000,
    env: {
      MCP_CASSETTE_BIN: binary,
      GOFLAGS: "-mod=readonly",
      GOCACHE: path.join(MODULE, ".build", "gocache"),
    },
  });
  const passed = result.stdout.match(/^--- PASS/gm)?.length ?? 0;
  const failed = result.stdout.match(/^--- FAIL/gm)?.length ?? 0;
  assert.equal(
    result.code,
    0,
    `go test: ${passed} passed, ${failed} failed\n${result.stdout}${result.stderr}`,
  );
  assert.ok(passed >= 4, `go test ran ${passed} tests:\n${result.stdout}`);
  console.log(`mcpcassette (Go): ${passed} passed, ${failed} failed`);
});
