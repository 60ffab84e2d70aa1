/**
 * Absolute paths without `node:path`: replay's start-up loads no Node
 * built-in, and importing `node:path` for one `resolve` added about 14 ms of
 * processor time to every replay's start on Deno
 * (`scripts/bench_startup_ab.ts --cpu`, 12 runs each).
 *
 * @module
 */
import { runtime } from "../runtime/mod.ts";

/** True for `/x` and, on Windows, `C:\x` or `\\server\x`. */
export function isAbsolute(path: string): boolean {
  return path.startsWith("/") || path.startsWith("\\") || /^[A-Za-z]:[\\/]/.test(path);
}

/**
 * `given` made absolute against the working folder, with `.` and `..`
 * resolved (as `path.resolve` does; symbolic links are not followed).
 */
export function absolutePath(given: string): string {
  const windows = /^[A-Za-z]:[\\/]/.test(given) || runtime.cwd().includes("\\");
  const separator = windows ? "\\" : "/";
  const full = isAbsolute(given) ? given : runtime.cwd() + separator + given;
  // The root (`/`, `C:\`, `\\server\share`) stays; the rest is walked.
  const root = /^([A-Za-z]:[\\/]|[\\/]{2}[^\\/]+[\\/][^\\/]+[\\/]?|[\\/])/.exec(full)?.[0] ?? "";
  const kept: string[] = [];
  for (const part of full.slice(root.length).split(/[\\/]/)) {
    if (part === "" || part === ".") continue;
    if (part === "..") kept.pop();
    else kept.push(part);
  }
  return root + kept.join(separator);
}
