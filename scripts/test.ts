/**
 * `npm test` / `deno task test`: the suite under Deno's test runner, over
 * tests/ or the paths given. Deno's runner colours its report even into a
 * pipe or a file; here it is told not to (NO_COLOR) unless stdout is a
 * terminal or FORCE_COLOR asks for colour, so CI logs and saved reports
 * carry no ANSI codes.
 *
 * The suite runs with a config folder of its own (`XDG_CONFIG_HOME`, removed
 * at the end): a recording makes its redaction key there
 * (docs/redaction.md), and the tests must neither read the user's key nor
 * leave one in their home.
 *
 * Usage: deno run -A scripts/test.ts [PATH…]   (npm test -- PATH…)
 *
 * @module
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const EXE = process.platform === "win32" ? ".exe" : "";
const DENO = path.join(ROOT, "node_modules", "deno", `deno${EXE}`);

const env = { ...process.env };
if (!process.stdout.isTTY && !env.FORCE_COLOR) env.NO_COLOR = "1";
const config = mkdtempSync(path.join(os.tmpdir(), "mcp-cassette-test-config-"));
env.XDG_CONFIG_HOME = config;
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
rmSync(config, { recursive: true, force: true });
if (result.error) console.error(`test: cannot start deno: ${result.error.message}`);
process.exit(result.status ?? 1);
