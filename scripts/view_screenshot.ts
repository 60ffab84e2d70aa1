/**
 * Makes the README's picture of `view`: the SDK client records the
 * reference server (server-everything: tool calls, sampling, elicitation,
 * progress), then replays a different list of calls with `--report` (one
 * asked twice, one never, one not recorded), the page is built with that
 * report, opened in headless chromium, a call clicked, and the screenshot
 * saved.
 *
 * Usage: deno run -A --no-check scripts/view_screenshot.ts [--out docs/images/view.png]
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { CLI, DENO, NODE, ROOT, run } from "../tests/helpers.ts";
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

/** The SDK client asking for a chosen list of calls. */
const CLIENT = [DENO, "run", "-A", "--no-check", path.join(ROOT, "tests/prune/_client.ts")];

const dir = mkdtempSync(path.join(tmpdir(), "mcp-cassette-screenshot-"));
const browser = await HeadlessChromium.launch();
try {
  const cassette = path.join(dir, "everything.cassette.jsonl");
  const report = path.join(dir, "report.json");
  const recorded = ["--steps", "tools,echo,sum,sampling,elicitation,progress"];
  const replayed = ["--steps", "tools,echo,echo,sampling,progress,prompt"];
  await step([...CLIENT, ...recorded, "--", ...CLI, "record", "-o", cassette, "--", ...EVERYTHING]);
  await step([...CLIENT, ...replayed, "--", ...CLI, "replay", cassette, "--report", report]);
  const html = path.join(dir, "everything.html");
  const reports = hasRecordedRows(report) ? ["--report", report] : [];
  await step([...CLI, "view", cassette, "-o", html, ...reports]);
  // The sampling request the server asked in the middle of a call, opened by its link.
  const line = readFileSync(cassette, "utf8").split("\n")
    .findIndex((text) => text.includes('"method":"sampling/createMessage"')) + 1;
  const { page } = await browser.open(html, { width: 1440, hash: `#frame-${line}` });
  await page.setViewport({ width: 1440, height: 1350 });
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
