/**
 * A small test suite as a user would write one: each "test" replays the
 * cassette through the library (`startCassette`, mode `none`) to the SDK
 * client asking for its own list of calls, then `finish()`es, which throws
 * on a miss. With MCP_CASSETTE_REPORT_DIR set the helpers leave one report
 * per test there. Prints every test's results as one JSON document.
 *
 * Usage: deno run -A tests/prune/_suite.ts CASSETTE STEPS [STEPS...]
 */
import process from "node:process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { startCassette } from "../../mod.ts";
import { DENO, run } from "../helpers.ts";

const CLIENT = [
  DENO,
  "run",
  "-A",
  "--no-check",
  path.join(path.dirname(fileURLToPath(import.meta.url)), "_client.ts"),
];
const [cassette, ...tests] = process.argv.slice(2);
const results: unknown[] = [];
for (const steps of tests) {
  const server = await startCassette({ path: cassette, mode: "none" });
  const client = await run([...CLIENT, "--steps", steps, "--", server.command, ...server.args]);
  if (client.code !== 0) throw new Error(client.stderr);
  await server.finish();
  results.push(JSON.parse(client.stdout).results);
}
process.stdout.write(JSON.stringify(results) + "\n");
