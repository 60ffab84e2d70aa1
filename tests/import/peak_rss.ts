/**
 * Loads one cassette the way lint, replay and inspect do and prints, as one
 * JSON line, the error it failed with (if any) and the peak resident set
 * size of this process in KiB. Used by hardening_test.ts to show a file of
 * no known format is refused without being read whole.
 *
 * Usage: deno run -A tests/import/peak_rss.ts FILE
 */
import process from "node:process";
import { loadCassette } from "../../src/cassette/reader.ts";

let error: string | undefined;
try {
  await loadCassette(process.argv[2]);
} catch (caught) {
  error = (caught as Error).message;
}
process.stdout.write(JSON.stringify({ error, maxRssKiB: process.resourceUsage().maxRSS }) + "\n");
