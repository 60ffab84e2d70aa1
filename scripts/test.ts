/**
 * `npm test` / `deno task test`: the suite under Deno's test runner, over
 * tests/ or the paths given. Deno's runner colours its report even into a
 * pipe or a file; here it is told not to (NO_COLOR) unless stdout is a
 * terminal or FORCE_COLOR asks for colour, so CI logs and saved reports
 * carry no ANSI codes.
 *
 * Usage: deno run -A scripts/test.ts [PATH…]   (npm test -- PATH…)
 *
 * @module
 */
import { spawnSync } from "node:child_process";
import path from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const EXE = process.platform === "win32" ? ".exe" : "";
const DENO = path.join(ROOT, "node_modules", "deno", `deno${EXE}`);

const env = { ...process.env };
if (!process.stdout.isTTY && !env.FORCE_COLOR) env.NO_COLOR = "1";
const paths = process.argv.slice(2).map((given) => path.resolve(given));
const result = spawnSync(
  DENO,
  ["test", "-A", "--no-check", ...(paths.length ? paths : ["tests/"])],
  {
    cwd: ROOT,
    env,
    stdio: "inherit",
  },
);
if (result.error) console.error(`test: cannot start deno: ${result.error.message}`);
process.exit(result.status ?? 1);
