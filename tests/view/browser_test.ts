/**
 * The viewer page in a real browser (Debian's chromium, headless): a
 * recording of the reference server opens with no console error and no
 * request but its own load, shows the recorded tools, opens a frame on a
 * click or a #frame-N link, narrows its rows with the filter, and a
 * 100,000-call cassette opens with only the rows on screen drawn.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, rmSync, statSync } from "node:fs";
import path from "node:path";
import { CLI, DENO, EVERYTHING, ROOT, run, SDK_SESSION, tempDir } from "../helpers.ts";
import { browserMissing, HeadlessChromium } from "./_browser.ts";
import type { OpenedPage } from "./_browser.ts";
import { linesWith, toolCassette, writeCassette } from "./_cassettes.ts";

const skip = browserMissing();
/** A skipped test names why in its title too: not every runner prints a skip's reason. */
const title = (name: string) => skip ? `${name} [skipped: ${skip}]` : name;

function visibleRows(opened: OpenedPage): Promise<string[]> {
  return opened.page.$$eval("#rows .row", (rows) => rows.map((row) => row.textContent ?? ""));
}

test(title("a recording of server-everything in the browser: tools, frames, links, filter"), {
  skip,
}, async () => {
  const dir = tempDir();
  const browser = await HeadlessChromium.launch();
  try {
    const cassette = path.join(dir, "everything.cassette.jsonl");
    const live = await run([
      ...SDK_SESSION,
      "--",
      ...CLI,
      "record",
      "-o",
      cassette,
      "--",
      ...EVERYTHING,
    ]);
    assert.equal(live.code, 0, live.stderr);
    const html = path.join(dir, "everything.html");
    const viewed = await run([...CLI, "view", cassette, "-o", html]);
    assert.equal(viewed.code, 0, viewed.stderr);

    const opened = await browser.open(html);
    const { page } = opened;
    const body = await page.$eval("body", (element) => element.textContent ?? "");
    for (const tool of ["echo", "get-sum", "get-tiny-image", "get-structured-content"]) {
      assert.ok(body.includes(tool), `the page does not show the tool ${tool}`);
    }
    assert.match(await page.$eval("#count", (e) => e.textContent ?? ""), /^\d+ frames$/);

    // A click on the get-sum request opens it, pretty-printed, and links to it.
    const [sumLine] = linesWith(cassette, '"params":{"name":"get-sum"');
    // The whole timeline in the window first: a click's scrolling must not move its rows.
    await page.$eval("#tl", (e) => e.scrollIntoView());
    const row = await page.waitForSelector(`#rows .row:has(a.ln[href="#frame-${sumLine}"])`);
    await row!.click();
    const shown = await page.$eval("#detail pre.json", (e) => e.textContent ?? "");
    assert.match(shown, /"name": "get-sum"/);
    assert.match(shown, /\n {8}"a": 2,\n/);
    assert.ok(await page.$("#detail .json .key"), "the JSON is not highlighted");
    assert.equal(await page.evaluate(() => location.hash), `#frame-${sumLine}`);

    // The filter narrows the rows to the frames whose text matches.
    const total = (await visibleRows(opened)).length;
    await page.type("#q", "get-sum");
    await page.waitForFunction('/ of /.test(document.getElementById("count").textContent)');
    const filtered = await page.$$eval(
      "#rows .row a.ln",
      (links) => links.map((a) => a.textContent),
    );
    assert.deepEqual(filtered, linesWith(cassette, "get-sum").map(String));
    assert.ok(filtered.length < total, `${filtered.length} rows of ${total}`);

    // The tool filter keeps each call with its answer.
    await page.$eval("#q", (e) => ((e as unknown as { value: string }).value = ""));
    await page.select("#tool", "echo");
    assert.equal((await visibleRows(opened)).length, 4, "2 echo calls and their 2 answers");

    // A #frame-N link opens that frame from a fresh load.
    const answerLine = sumLine + 1;
    const linked = await browser.open(html, { hash: `#frame-${answerLine}` });
    assert.match(
      await linked.page.$eval("#detail", (e) => e.textContent ?? ""),
      /The sum of 2 and 40/,
    );
    assert.ok(await linked.page.$(`#rows .row.sel a.ln[href="#frame-${answerLine}"]`));

    for (const { errors, requests } of [opened, linked]) {
      assert.deepEqual(errors, []);
      assert.equal(requests.length, 1, `requests: ${requests.join(", ")}`);
      assert.match(requests[0], /^file:\/\//);
    }
  } finally {
    await browser.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test(
  title("a 100,000-call cassette opens drawing only the rows on screen, and scrolls to its end"),
  {
    skip,
  },
  async () => {
    const dir = tempDir();
    const browser = await HeadlessChromium.launch();
    try {
      const cassette = path.join(dir, "big.cassette.jsonl");
      const lines = toolCassette({ calls: 100_000 });
      writeCassette(cassette, lines);
      const html = path.join(dir, "big.html");
      const viewed = await run([...CLI, "view", cassette, "-o", html], { timeoutMs: 300_000 });
      assert.equal(viewed.code, 0, viewed.stderr);
      const extra = statSync(html).size - statSync(cassette).size;
      assert.ok(extra <= 300 * 1024, `the page is ${extra} bytes more than the cassette`);

      const started = Date.now();
      const opened = await browser.open(html);
      const openedMs = Date.now() - started;
      const { page } = opened;
      assert.equal(
        await page.$eval("#count", (e) => e.textContent),
        `${lines.length - 1} frames`,
      );
      const drawn = (await visibleRows(opened)).length;
      assert.ok(drawn > 10 && drawn < 200, `${drawn} rows drawn (opened in ${openedMs} ms)`);

      await page.$eval("#tl", (e) => (e.scrollTop = e.scrollHeight));
      const last = lines.length;
      await page.waitForSelector(`#rows a[href="#frame-${last}"]`, { timeout: 30_000 });
      assert.ok((await visibleRows(opened)).length < 200);
      assert.deepEqual(opened.errors, []);
      assert.equal(opened.requests.length, 1);
      assert.ok(readFileSync(html, "utf8").endsWith("</html>\n"));
    } finally {
      await browser.close();
      rmSync(dir, { recursive: true, force: true });
    }
  },
);

test(
  title(
    "view --report of two real replays: rows marked played, repeated, inexact, never asked; the miss links to its closest recording",
  ),
  {
    skip,
  },
  async () => {
    const dir = tempDir();
    const browser = await HeadlessChromium.launch();
    try {
      const client = [DENO, "run", "-A", "--no-check", path.join(ROOT, "tests/prune/_client.ts")];
      const cassette = path.join(dir, "everything.cassette.jsonl");
      const live = await run([
        ...client,
        "--steps",
        "tools,echo,sum,prompt",
        "--",
        ...CLI,
        "record",
        "-o",
        cassette,
        "--",
        ...EVERYTHING,
      ]);
      assert.equal(live.code, 0, live.stderr);
      // One run repeats echo and asks for what was never recorded; a lenient one gets a stand-in for get-sum.
      const runs: [string, string[]][] = [["tools,echo,echo,sampling", []], ["sum-other", [
        "--lenient",
      ]]];
      const reports: string[] = [];
      for (const [index, [steps, flags]] of runs.entries()) {
        const report = path.join(dir, `report-${index}.json`);
        reports.push("--report", report);
        const replayed = await run([
          ...client,
          "--steps",
          steps,
          "--",
          ...CLI,
          "replay",
          cassette,
          ...flags,
          "--report",
          report,
        ]);
        assert.equal(replayed.code, 0, replayed.stderr);
      }
      const missed = reports[1]; // the first run's report, with its miss
      const html = path.join(dir, "everything.html");
      const viewed = await run([...CLI, "view", cassette, "-o", html, ...reports]);
      assert.equal(viewed.code, 0, viewed.stderr);

      const opened = await browser.open(html);
      const { page } = opened;
      const badgeOf = (line: number) =>
        page.$eval(`#rows .row:has(a.ln[href="#frame-${line}"]) .st`, (e) => e.textContent ?? "");
      const [listLine] = linesWith(cassette, '"method":"tools/list"');
      const [echoLine] = linesWith(cassette, '"params":{"name":"echo"');
      const [sumLine] = linesWith(cassette, '"params":{"name":"get-sum"');
      assert.equal(await badgeOf(listLine), "played");
      assert.equal(await badgeOf(echoLine), "repeated");
      assert.equal(await badgeOf(sumLine), "inexact");
      const [promptLine] = linesWith(cassette, '"method":"prompts/get"');
      assert.equal(await badgeOf(promptLine), "never asked");
      const misses = await page.$$eval(
        "#report .misses li",
        (items) => items.map((li) => li.textContent ?? ""),
      );
      assert.equal(misses.length, 1, misses.join("\n"));
      assert.match(misses[0], /tools\/call.*trigger-sampling-request/);
      const closest = JSON.parse(readFileSync(missed, "utf8")).misses[0].closestLine;
      await page.click(`#report .misses a[href="#frame-${closest}"]`);
      await page.waitForFunction(`location.hash === "#frame-${closest}"`);
      await page.waitForSelector(`#rows .row.sel a.ln[href="#frame-${closest}"]`);
      assert.deepEqual(opened.errors, []);
      assert.equal(opened.requests.length, 1);
    } finally {
      await browser.close();
      rmSync(dir, { recursive: true, force: true });
    }
  },
);
