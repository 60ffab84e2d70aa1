/**
 * The run report: how a recorder or replay started by a client under test
 * tells the library what happened. The library cannot see the exit code of
 * a process the client launched, so each launch appends a `start` line and,
 * when done, an `end` line with its replay report to a JSONL file the
 * library named (`--report FILE`).
 *
 * @module
 */
import { runtime } from "../runtime/mod.ts";
import type { ReplayReport } from "../replay/report.ts";
import { openToAppend, writeError } from "../files/safe_write.ts";

/** What one launch did. */
export type RunAction = "record" | "replay" | "replay-append";

/** One line of a run report. */
export interface RunReportLine {
  pid: number;
  event: "start" | "end";
  action: RunAction;
  /** On `end`: the exit code the launch chose. */
  code?: number;
  /** On `end` of a replay: what it saw. */
  report?: ReplayReport;
  /** On `end` of a replay with new episodes: how many exchanges were appended. */
  appended?: number;
  /** On `end` of a launch that failed: the one-line reason. */
  error?: string;
}

/** Appends the lines of one launch; does nothing without a file. */
export class RunReporter {
  #started = false;
  constructor(readonly file: string | undefined) {}

  #write(line: RunReportLine): void {
    if (!this.file) return;
    // One small write per line in append mode: lines of parallel launches never interleave.
    const out = openToAppend(this.file, "the run log");
    try {
      out.write(new TextEncoder().encode(JSON.stringify(line) + "\n"));
    } catch (error) {
      // Half a line would break every later reader of the log: cut it off.
      const written = (error as { written?: number }).written ?? 0;
      if (written > 0) out.truncate(out.size() - written);
      throw writeError(this.file, error, "the run log");
    } finally {
      out.close();
    }
  }

  /** Records the start of a launch. */
  start(action: RunAction): void {
    this.#started = true;
    this.#write({ pid: runtime.pid(), event: "start", action });
  }

  /**
   * Records the end of a launch that failed with `error`, whose exit code it
   * carries (and its start first, if it never got that far).
   */
  failed(action: RunAction, error: { message: string; exitCode: number }): void {
    // A launch that failed before it started (it lost the claim) is still a launch.
    if (!this.#started) this.start(action);
    this.#write({
      pid: runtime.pid(),
      event: "end",
      action,
      code: error.exitCode,
      error: error.message,
    });
  }

  /** Records the end of a launch; returns `code` for chaining. */
  end(action: RunAction, code: number, report?: ReplayReport, appended?: number): number {
    this.#write({
      pid: runtime.pid(),
      event: "end",
      action,
      code,
      ...(report ? { report } : {}),
      ...(appended ? { appended } : {}),
    });
    return code;
  }
}

/** Reads a run report; a missing file is an empty report. */
export async function readRunReport(file: string): Promise<RunReportLine[]> {
  let text: string;
  try {
    text = await runtime.readTextFile(file);
  } catch {
    return [];
  }
  return text.split("\n").filter((line) => line.trim() !== "").flatMap((line) => {
    try {
      return [JSON.parse(line) as RunReportLine];
    } catch {
      return [];
    }
  });
}
