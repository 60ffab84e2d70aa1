/**
 * Makes the README's picture of `view`: records the reference server
 * (server-everything) driven by the SDK client's `initiated` scenario
 * (sampling, elicitation, roots, progress), replays it once with
 * `--report`, builds the page with that report, opens it in headless
 * chromium, clicks the sampling call and saves a screenshot.
 *
 * Usage: deno run -A --no-check scripts/view_screenshot.ts [--out docs/images/view.png]
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { CLI, NODE, ROOT, run, SDK_SESSION } from "../tests/helpers.ts";
import { browserMissing, HeadlessChromium } from "../tests/view/_browser.ts";

const { values } = parseArgs({
  options: { out: { type: "string", default: path.join(ROOT, "docs/images/view.png") } },
});
const missing = browserMissing();
if (missing) throw new Error(missing);

async function step(command: string[]): Promise<void> {
  const result = await run(command, { timeoutMs: 120_000 });
  if (result.code !== 0) throw new Error(`${command.join(" ")}: ${result.stderr}`);
}

// Relative to the checkout (run() starts in it), so the picture shows no machine's paths.
const EVERYTHING = [
  NODE,
  "node_modules/@modelcontextprotocol/server-everything/dist/index.js",
  "stdio",
];

const dir = mkdtempSync(path.join(tmpdir(), "mcp-cassette-screenshot-"));
const browser = await HeadlessChromium.launch();
try {
  const cassette = path.join(dir, "everything.cassette.jsonl");
  const report = path.join(dir, "report.json");
  const scenario = ["--scenario", "initiated"];
  await step([
    ...SDK_SESSION,
    ...scenario,
    "--",
    ...CLI,
    "record",
    "-o",
    cassette,
    "--",
    ...EVERYTHING,
  ]);
  await step([...SDK_SESSION, ...scenario, "--", ...CLI, "replay", cassette, "--report", report]);
  const html = path.join(dir, "everything.html");
  const reports = hasRecordedRows(report) ? ["--report", report] : [];
  await step([...CLI, "view", cassette, "-o", html, ...reports]);
  const { page } = await browser.open(html, { width: 1440 });
  await page.setViewport({ width: 1440, height: 1250 });
  const row = await page.waitForSelector("#rows .row:has(.chip.request b)");
  const rows = await page.$$("#rows .row.k-request");
  await (rows.at(-2) ?? row)!.click();
  await page.evaluate("window.scrollTo(0, 0)");
  await page.screenshot({ path: values.out! as `${string}.png` });
  console.log(`Wrote ${values.out}${reports.length > 0 ? " (with a replay report)" : ""}`);
} finally {
  await browser.close();
  rmSync(dir, { recursive: true, force: true });
}

/** Whether the report has the per-recording rows `view --report` reads (newer replays). */
function hasRecordedRows(file: string): boolean {
  return existsSync(file) && Array.isArray(JSON.parse(readFileSync(file, "utf8")).recorded);
}
