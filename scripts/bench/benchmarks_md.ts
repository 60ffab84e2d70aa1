/**
 * Writes one benchmark script's section of BENCHMARKS.md, leaving the others
 * alone. Shared by scripts/bench_http.ts and scripts/bench_startup.ts.
 *
 * @module
 */
import * as fs from "node:fs";

/**
 * Replaces the section that starts with the heading `title` (up to the next
 * `## ` heading) with `section`, or appends it when the file has none.
 */
export function replaceSection(file: string, title: string, section: string): void {
  const text = fs.existsSync(file) ? fs.readFileSync(file, "utf8") : "# Benchmarks\n";
  const start = text.indexOf(title);
  if (start < 0) {
    fs.writeFileSync(file, text.trimEnd() + "\n\n" + section);
    return;
  }
  const next = text.indexOf("\n## ", start + title.length);
  const rest = next < 0 ? "" : text.slice(next + 1);
  fs.writeFileSync(file, text.slice(0, start) + section + (rest ? "\n" + rest : ""));
}
