/**
 * `view` without a browser: what the page holds, that it is self-contained
 * and small, the report marks, and the refusals of bad input.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { CLI, run, tempDir } from "../helpers.ts";
import { loadCassette } from "../../src/cassette/reader.ts";
import { renderPage } from "../../src/view/mod.ts";
import { summarise } from "../../src/view/summary.ts";
import { linesWith, reportFor, toolCassette, writeCassette } from "./_cassettes.ts";

function embedded(html: string, id: string): string {
  const match = new RegExp(`<script type="[^"]+" id="${id}">([\\s\\S]*?)</script>`).exec(html);
  assert.ok(match, `no ${id} in the page`);
  return match[1];
}

test("the page embeds every entry exactly, even text that would close a script element", async () => {
  const dir = tempDir();
  try {
    const file = path.join(dir, "w.cassette.jsonl");
    const nasty = "</script><script>alert(1)</script><!-- & \u2028";
    writeCassette(file, toolCassette({ calls: 4, answerText: nasty }));
    const cassette = await loadCassette(file);
    const html = renderPage(cassette);
    assert.equal(html.match(/<\/script>/g)?.length, 3, "only the page's own three scripts close");
    const lines = embedded(html, "mc-lines").split("\n").map((text) => JSON.parse(text));
    assert.deepEqual(lines, cassette.entries.map(({ line: _line, ...rest }) => rest));
    assert.ok(JSON.stringify(lines).includes(JSON.stringify(nasty).slice(1, -1)));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("the page fetches nothing: no external URL, stylesheet, image or script source", async () => {
  const dir = tempDir();
  try {
    const file = path.join(dir, "w.cassette.jsonl");
    writeCassette(file, toolCassette({ calls: 3 }));
    const html = renderPage(await loadCassette(file));
    const page = html.replace(embedded(html, "mc-lines"), "");
    assert.doesNotMatch(page, /\ssrc=|<link|@import|url\(|https?:\/\//i);
    assert.match(page, /Content-Security-Policy" content="default-src 'none'/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("the header glance and the per-method and per-tool statistics", async () => {
  const dir = tempDir();
  try {
    const file = path.join(dir, "w.cassette.jsonl");
    writeCassette(file, toolCassette({ calls: 6 }));
    const summary = summarise(await loadCassette(file));
    assert.equal(summary.glance.serverName, "weather 1.2.3");
    assert.equal(summary.glance.protocolVersion, "2025-11-25");
    assert.deepEqual(summary.glance.redaction, ["keys:default", "detector:email"]);
    assert.deepEqual(summary.glance.sessions, ["default"]);
    const calls = summary.methods.find((m) => m.label === "tools/call")!;
    assert.equal(calls.count, 6);
    assert.equal(calls.errors, 1);
    assert.equal(calls.latencies.length, 6);
    const sampling = summary.methods.find((m) => m.label === "sampling/createMessage")!;
    assert.equal(sampling.dir, "s2c");
    assert.deepEqual(
      summary.tools.map((tool) => [tool.label, tool.count]),
      [["alerts", 2], ["forecast", 2], ["geocode", 2]],
    );
    // Call 5 (alerts): 0.5 ms to the answer plus the 5 ms it took.
    assert.equal(summary.tools.find((tool) => tool.label === "alerts")!.latencies[1], 5.5);
    const html = renderPage(await loadCassette(file));
    assert.match(html, /<tr data-tool="geocode"/);
    assert.equal(
      html.match(/<svg class="chart"/g)?.length,
      7,
      "a chart per request method (4) and tool (3)",
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("view --report marks requests and lists misses with their closest recording", async () => {
  const dir = tempDir();
  try {
    const file = path.join(dir, "w.cassette.jsonl");
    writeCassette(file, toolCassette({ calls: 4 }));
    const [first, second, third] = linesWith(file, '"method":"tools/call"');
    const reportA = path.join(dir, "a.json");
    const reportB = path.join(dir, "b.json");
    const miss = {
      method: "tools/call",
      message: 'params.arguments.city: recorded "City 1", got "Porto"',
      closestLine: first,
      path: "params.arguments.city",
    };
    writeFileSync(reportA, reportFor(file, { [first]: { played: 1 }, [second]: { inexact: 1 } }));
    writeFileSync(reportB, reportFor(file, { [first]: { played: 1, repeated: 1 } }, [miss]));
    const out = path.join(dir, "page.html");
    const result = await run([
      ...CLI,
      "view",
      file,
      "-o",
      out,
      "--report",
      reportA,
      "--report",
      reportB,
    ]);
    assert.equal(result.code, 0, result.stderr);
    const html = readFileSync(out, "utf8");
    const meta = JSON.parse(embedded(html, "mc-meta"));
    assert.deepEqual(meta.report.repeated, [first]);
    assert.deepEqual(meta.report.inexact, [second]);
    assert.ok(meta.report.never.includes(third));
    assert.deepEqual(meta.report.unlisted, []);
    assert.match(
      html,
      new RegExp(`closest recording: <a href="#frame-${first}">line ${first}</a>`),
    );
    assert.match(html, /, differing at <code>params\.arguments\.city<\/code>/);
    assert.match(html, /live misses<\/span> 1/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("the page weighs at most the cassette plus 300 KB", async () => {
  const dir = tempDir();
  try {
    const file = path.join(dir, "big.cassette.jsonl");
    writeCassette(file, toolCassette({ calls: 5000 }));
    const out = path.join(dir, "big.html");
    const result = await run([...CLI, "view", file, "-o", out]);
    assert.equal(result.code, 0, result.stderr);
    const extra = statSync(out).size - statSync(file).size;
    assert.ok(extra <= 300 * 1024, `the page is ${extra} bytes more than the cassette`);
    assert.equal(path.basename(out), "big.html");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("without -o the page goes beside the cassette, .jsonl swapped for .html", async () => {
  const dir = tempDir();
  try {
    const file = path.join(dir, "w.cassette.jsonl");
    writeCassette(file, toolCassette({ calls: 1 }));
    const result = await run([...CLI, "view", file]);
    assert.equal(result.code, 0, result.stderr);
    assert.ok(existsSync(path.join(dir, "w.cassette.html")));
    assert.match(result.stdout, /^Wrote .*w\.cassette\.html \(\d+ KB\)\n$/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("bad input: one line naming the file and the problem, exit 2, nothing written", async () => {
  const dir = tempDir();
  try {
    const file = path.join(dir, "w.cassette.jsonl");
    writeCassette(file, toolCassette({ calls: 2 }));
    const other = path.join(dir, "other.cassette.jsonl");
    writeCassette(other, [toolCassette({ calls: 2 })[0].replace("weather.js", "x.js")]);
    const foreign = path.join(dir, "foreign.json");
    writeFileSync(foreign, reportFor(other, {}));
    const broken = path.join(dir, "broken.cassette.jsonl");
    writeFileSync(broken, toolCassette({ calls: 1 })[0] + "\n{not json\n{}\n");
    const notReport = path.join(dir, "nope.json");
    writeFileSync(notReport, JSON.stringify({ misses: [] }));
    const out = path.join(dir, "page.html");
    const cases: [string[], RegExp][] = [
      [[broken], /broken\.cassette\.jsonl:2: not valid JSON/],
      [[path.join(dir, "missing.jsonl")], /missing\.jsonl.*no such file/],
      [[file, "--report", foreign], /foreign\.json: written for another cassette/],
      [[file, "--report", notReport], /nope\.json: the report has no cassette\.headerSha256/],
      [[file, "--report", path.join(dir, "gone.json")], /gone\.json: cannot read the report/],
    ];
    for (const [args, message] of cases) {
      const result = await run([...CLI, "view", ...args, "-o", out]);
      assert.equal(result.code, 2, `${args.join(" ")}: ${result.stderr}`);
      assert.match(result.stderr, message);
      assert.equal(result.stderr.trim().split("\n").length, 1, result.stderr);
      assert.ok(!existsSync(out), `${args.join(" ")} wrote the page`);
      assert.ok(!existsSync(`${out}.tmp`));
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("a cassette whose last line was torn by a crash is shown, the torn line named in the header", async () => {
  const dir = tempDir();
  try {
    const file = path.join(dir, "torn.cassette.jsonl");
    const lines = toolCassette({ calls: 2 });
    writeFileSync(file, lines.join("\n") + '\n{"type":"message","t":99,"dir":"s2c","msg":{"jsonr');
    const out = path.join(dir, "torn.html");
    const result = await run([...CLI, "view", file, "-o", out]);
    assert.equal(result.code, 0, result.stderr);
    const html = readFileSync(out, "utf8");
    assert.match(html, new RegExp(`<dt>torn last line</dt><dd>line ${lines.length + 1}</dd>`));
    assert.equal(embedded(html, "mc-lines").split("\n").length, lines.length - 1);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
