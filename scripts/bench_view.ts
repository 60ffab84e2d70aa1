/**
 * The viewer's figures for BENCHMARKS.md: for cassettes of 1,000, 10,000
 * and 100,000 tool calls (generated, never committed), how long `view`
 * takes, how much the page weighs beside the cassette, how soon headless
 * chromium paints it (first contentful paint, and the timeline ready), the
 * page's JS heap, and the frame times and main-thread work of a scroll from top to
 * bottom.
 *
 * Usage: deno run -A --no-check scripts/bench_view.ts [--calls 1000,10000,100000] [--rounds 3]
 */
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { CLI, run } from "../tests/helpers.ts";
import { browserMissing, HeadlessChromium } from "../tests/view/_browser.ts";
import { toolCassette, writeCassette } from "../tests/view/_cassettes.ts";

const { values } = parseArgs({
  options: {
    calls: { type: "string", default: "1000,10000,100000" },
    rounds: { type: "string", default: "3" },
  },
});
const missing = browserMissing();
if (missing) throw new Error(missing);
const rounds = Number(values.rounds);

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const p95 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * 0.95)];
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/**
 * In the page: scrolls the timeline from top to bottom in 120 animation
 * frames, each a jump to rows never drawn before (the worst case), and
 * times the frames. A frame rate kept is 16.7 ms a frame.
 */
const SCROLL_FRAMES = `new Promise((resolve) => {
  const tl = document.getElementById("tl");
  const stride = (tl.scrollHeight - tl.clientHeight) / 120;
  const times = [];
  let last = performance.now(), i = 0;
  const step = (now) => {
    if (i > 0) times.push(now - last);
    last = now;
    if (i++ === 120) return resolve({ times, rows: document.querySelectorAll("#rows .row").length });
    tl.scrollTop = i * stride;
    requestAnimationFrame(step);
  };
  requestAnimationFrame(step);
})`;

const dir = mkdtempSync(path.join(tmpdir(), "mcp-cassette-bench-view-"));
const browser = await HeadlessChromium.launch();
try {
  console.log(
    "| calls | cassette | page | page − cassette | `view` | first paint | timeline ready | JS heap | scroll frame p50 / p95 / max | main-thread work per frame | rows in the DOM |",
  );
  console.log("| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
  for (const calls of values.calls.split(",").map(Number)) {
    const cassette = path.join(dir, `c${calls}.cassette.jsonl`);
    writeCassette(cassette, toolCassette({ calls }));
    const html = path.join(dir, `c${calls}.html`);
    const viewMs: number[] = [];
    const paint: number[] = [];
    const ready: number[] = [];
    const heap: number[] = [];
    const steps: number[] = [];
    const work: number[] = [];
    let rows = 0;
    for (let round = 0; round < rounds; round++) {
      const started = performance.now();
      const result = await run([...CLI, "view", cassette, "-o", html], { timeoutMs: 600_000 });
      if (result.code !== 0) throw new Error(result.stderr);
      viewMs.push(performance.now() - started);
      const { page, errors, requests } = await browser.open(html);
      if (errors.length > 0 || requests.length !== 1) {
        throw new Error(`errors ${errors.join("; ")}; ${requests.length} requests`);
      }
      // First paint is recorded after the frame that follows the script.
      await page.evaluate("new Promise((r) => requestAnimationFrame(() => setTimeout(r, 50)))");
      const timing = await page.evaluate(`({
        paint: performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? -1,
        ready: performance.getEntriesByName("mc-timeline-ready")[0]?.startTime ?? -1,
      })`) as { paint: number; ready: number };
      paint.push(timing.paint);
      ready.push(timing.ready);
      heap.push((await page.metrics()).JSHeapUsedSize ?? 0);
      const busyBefore = (await page.metrics()).TaskDuration ?? 0;
      const scrolled = await page.evaluate(SCROLL_FRAMES) as { times: number[]; rows: number };
      // Main-thread time (script, style, layout, paint) per scrolled frame, in ms.
      work.push((((await page.metrics()).TaskDuration ?? 0) - busyBefore) * 1000 / 120);
      steps.push(...scrolled.times);
      rows = Math.max(rows, scrolled.rows);
      await page.close();
    }
    const cassetteSize = statSync(cassette).size;
    const pageSize = statSync(html).size;
    console.log(
      `| ${calls.toLocaleString("en")} | ${mb(cassetteSize)} | ${mb(pageSize)} | ${
        Math.round((pageSize - cassetteSize) / 1024)
      } KB | ${Math.round(median(viewMs))} ms | ${Math.round(median(paint))} ms | ${
        Math.round(median(ready))
      } ms | ${mb(median(heap))} | ${median(steps).toFixed(1)} / ${p95(steps).toFixed(1)} / ${
        Math.max(...steps).toFixed(1)
      } ms | ${median(work).toFixed(1)} ms | ${rows} |`,
    );
  }
} finally {
  await browser.close();
  rmSync(dir, { recursive: true, force: true });
}
