/**
 * The view page in a window under 1000 px wide (Debian's chromium): no
 * figure of the tables wraps ("7.1 / ms"), and the timeline has the whole
 * width until a frame is opened, which then shows below it.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import { CLI, run, tempDir } from "../helpers.ts";
import { browserMissing, HeadlessChromium } from "./_browser.ts";
import { toolCassette, writeCassette } from "./_cassettes.ts";

const skip = browserMissing();
/** A skipped test names why in its title too: not every runner prints a skip's reason. */
const title = (name: string) => skip ? `${name} [skipped: ${skip}]` : name;

test(title("at 760 px: figures on one line, no empty frame panel, the frame below once opened"), {
  skip,
}, async () => {
  const dir = tempDir();
  const cassette = path.join(dir, "narrow.cassette.jsonl");
  writeCassette(cassette, toolCassette({ calls: 40 }));
  const html = path.join(dir, "narrow.html");
  const viewed = await run([...CLI, "view", cassette, "-o", html]);
  assert.equal(viewed.code, 0, viewed.stderr);
  const browser = await HeadlessChromium.launch();
  try {
    const { page } = await browser.open(html, { width: 760 });
    // A figure broken over two lines is two boxes of text.
    const wrapped = await page.evaluate(`[...document.querySelectorAll(
      "#stats td.num, #rows .t, #rows .latl",
    )].filter((cell) => {
      const range = document.createRange();
      range.selectNodeContents(cell);
      return range.getClientRects().length > 1;
    }).map((cell) => cell.textContent)`);
    assert.deepEqual(wrapped, [], "figures broken over two lines");

    const width = (selector: string) =>
      page.$eval(selector, (e) => e.getBoundingClientRect().width);
    assert.equal(await width("#detail"), 0, "an empty frame panel takes room");
    assert.equal(Math.round(await width("#tl")), Math.round(await width("#main")));

    await page.$eval("#tl", (e) => e.scrollIntoView());
    await page.click("#rows .row:nth-child(8) .t");
    await page.waitForSelector("#detail pre.json");
    const tl = await page.$eval("#tl", (e) => e.getBoundingClientRect().toJSON());
    const detail = await page.$eval("#detail", (e) => e.getBoundingClientRect().toJSON());
    assert.ok(detail.top >= tl.bottom - 1, "the frame is not below the timeline");
    assert.equal(Math.round(detail.width), Math.round(tl.width));
  } finally {
    await browser.close();
  }
});
