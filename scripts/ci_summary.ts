/**
 * Reads the logs of `deno test` and `bun test` runs and prints one line,
 * `N passed, N failed, N skipped`, over all of them; exits 1 on a failure, on
 * a runner that ended without its summary, or on a skipped test whose name
 * no allowlist entry matches.
 *
 * Usage: deno run -A scripts/ci_summary.ts --deno LOG --bun LOG [--status deno=CODE]
 *   [--status bun=CODE] [--check "NAME=CODE" ...] [--root DIR]
 * (`--root`: where tests/allowed_skips.txt is read, default this checkout).
 * A `--check` (fmt, lint, type check) counts as one passed or one failed test.
 *
 * Skips are counted from what each runner prints for them:
 * - Deno prints `name ... ignored` for `{ skip }`, `test.skip` and `todo`,
 *   but a `t.skip()` called inside a running test passes as `ok`: tests skip
 *   at run time through `skipTest` (tests/helpers.ts), which also prints a
 *   line starting with `SKIP_MARK`.
 * - Bun prints `(skip) name` and `(todo) name`, `t.skip()` included.
 *
 * Allowlists: `tests/allowed_skips.txt` (one `REGEX  # reason` a line; `#`
 * lines are comments) and `tests/interop/allowed_skips.json` when present
 * (an array of `{ "pattern" | "test": string, "reason": string }`, or an
 * object of test name to reason).
 *
 * @module
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";
import { SKIP_MARK } from "../tests/helpers.ts";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** What one runner's log says. */
export interface RunnerCounts {
  runner: string;
  passed: number;
  failed: number;
  skipped: string[];
  /** False when the log has no summary line (the runner crashed or was killed). */
  summarised: boolean;
}

/** An allowed skip. */
export interface AllowedSkip {
  pattern: RegExp;
  reason: string;
  source: string;
}

// deno-lint-ignore no-control-regex
const ANSI = /\x1b\[[0-9;]*m/g;

/** Counts a `deno test` log. */
export function denoCounts(log: string): RunnerCounts {
  const lines = log.replace(ANSI, "").split("\n");
  const summary = lines.filter((line) => /^(ok|FAILED) \| \d+ passed/.test(line)).at(-1);
  const number = (word: string) => Number(summary?.match(new RegExp(`(\\d+) ${word}`))?.[1] ?? 0);
  const ignored = lines.flatMap((line) => {
    const match = /^\s*(.+?) \.\.\. ignored/.exec(line);
    return match ? [match[1]] : [];
  });
  const marked = markedSkips(lines);
  return {
    runner: "Deno",
    // A test that skipped itself at run time passes under Deno: it did not pass.
    passed: Math.max(0, number("passed") - marked.length),
    failed: number("failed"),
    skipped: [...ignored, ...marked],
    summarised: summary !== undefined,
  };
}

/** Counts a `bun test` log. */
export function bunCounts(log: string): RunnerCounts {
  const lines = log.replace(ANSI, "").split("\n");
  const total = (word: string) => {
    const line = lines.filter((line) => new RegExp(`^ *\\d+ ${word}$`).test(line)).at(-1);
    return line === undefined ? undefined : Number(line.trim().split(" ")[0]);
  };
  // Bun lists the skipped tests again at the end ("N tests skipped:"): each is counted once.
  const recap = lines.findIndex((line) => /^\d+ tests? (skipped|todo):?$/.test(line.trim()));
  const skipped = (recap < 0 ? lines : lines.slice(0, recap)).flatMap((line) => {
    const match = /^\((?:skip|todo)\) (.+?)(?: \[[\d.]+m?s\])?$/.exec(line);
    return match ? [match[1]] : [];
  });
  return {
    runner: "Bun",
    passed: total("pass") ?? 0,
    failed: total("fail") ?? 0,
    skipped,
    summarised: total("pass") !== undefined,
  };
}

function markedSkips(lines: string[]): string[] {
  return lines.flatMap((line) => {
    const at = line.indexOf(SKIP_MARK);
    if (at === -1) return [];
    const rest = line.slice(at + SKIP_MARK.length).trim();
    return [rest.split(" :: ")[0]];
  });
}

/** Reads the allowlists; a line without a reason is an error naming it. */
export function readAllowlists(root = ROOT): AllowedSkip[] {
  const allowed: AllowedSkip[] = [];
  const text = path.join(root, "tests/allowed_skips.txt");
  if (existsSync(text)) {
    readFileSync(text, "utf8").split("\n").forEach((line, index) => {
      if (line.trim() === "" || line.trimStart().startsWith("#")) return;
      const source = `tests/allowed_skips.txt:${index + 1}`;
      const cut = line.indexOf(" # ");
      const reason = cut === -1 ? "" : line.slice(cut + 3).trim();
      if (reason === "") throw new Error(`${source}: no reason (write "REGEX  # reason")`);
      allowed.push({ pattern: new RegExp(line.slice(0, cut).trim()), reason, source });
    });
  }
  const json = path.join(root, "tests/interop/allowed_skips.json");
  if (existsSync(json)) allowed.push(...jsonAllowlist(JSON.parse(readFileSync(json, "utf8"))));
  return allowed;
}

function jsonAllowlist(value: unknown): AllowedSkip[] {
  const source = "tests/interop/allowed_skips.json";
  const exact = (name: string) => new RegExp(`^${name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}$`);
  if (Array.isArray(value)) {
    return value.map((entry: { pattern?: string; test?: string; reason?: string }, index) => {
      if (!entry.reason) throw new Error(`${source}: entry ${index} has no reason`);
      const pattern = entry.pattern !== undefined
        ? new RegExp(entry.pattern)
        : exact(String(entry.test));
      return { pattern, reason: entry.reason, source: `${source}[${index}]` };
    });
  }
  return Object.entries(value as Record<string, string>).map(([name, reason]) => ({
    pattern: exact(name),
    reason,
    source: `${source} "${name}"`,
  }));
}

function option(name: string): string[] {
  const values: string[] = [];
  process.argv.forEach((arg, index) => {
    if (arg === `--${name}` && process.argv[index + 1]) values.push(process.argv[index + 1]);
  });
  return values;
}

function main(): number {
  const counts = [
    ...option("deno").map((file) => denoCounts(readFileSync(file, "utf8"))),
    ...option("bun").map((file) => bunCounts(readFileSync(file, "utf8"))),
  ];
  const allowed = readAllowlists(option("root")[0] ?? ROOT);
  let failed = 0;
  let unexpected = 0;
  for (const count of counts) {
    failed += count.failed;
    if (!count.summarised) {
      console.log(`${count.runner}: no summary in its log (it crashed or was stopped)`);
      failed += 1;
    }
    for (const name of count.skipped) {
      const entry = allowed.find((allow) => allow.pattern.test(name));
      if (entry) console.log(`${count.runner}: skipped "${name}": ${entry.reason}`);
      else {
        console.log(`${count.runner}: UNEXPECTED SKIP "${name}" (not in tests/allowed_skips.txt)`);
        unexpected += 1;
      }
    }
    console.log(
      `${count.runner}: ${count.passed} passed, ${count.failed} failed, ${count.skipped.length} skipped`,
    );
  }
  // Exit statuses of runners whose logs claim success still count.
  for (const status of option("status")) {
    const [runner, code] = status.split("=");
    const count = counts.find((c) => c.runner.toLowerCase() === runner.toLowerCase());
    if (Number(code) !== 0 && count && count.failed === 0 && count.summarised) {
      console.log(`${count.runner}: exited ${code} with no failed test in its summary`);
      failed += 1;
    }
  }
  let passed = counts.reduce((sum, c) => sum + c.passed, 0);
  for (const check of option("check")) {
    const cut = check.lastIndexOf("=");
    const code = Number(check.slice(cut + 1));
    if (code === 0) {
      console.log(`${check.slice(0, cut)}: ok (counted as one passed)`);
      passed += 1;
    } else {
      console.log(`${check.slice(0, cut)}: exited ${code}`);
      failed += 1;
    }
  }
  const skipped = counts.reduce((sum, c) => sum + c.skipped.length, 0);
  if (unexpected > 0) console.log(`${unexpected} skip(s) not on the allowlist`);
  console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
  return failed > 0 || unexpected > 0 ? 1 : 0;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exit(main());
}
