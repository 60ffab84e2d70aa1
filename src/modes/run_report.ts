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

/** Where a launch's control side channel listens (`replay --run-log --control`). */
export interface LaunchControlAddress {
  /** `http://127.0.0.1:PORT`: the `/__cassette/…` requests go under it. */
  url: string;
  /** The bearer token it takes, made afresh by the launch. */
  token: string;
}

/**
 * What the library's control asks of launches that start from now on
 * (`event: "steer"`, written by the library, read by each launch as it
 * starts): the whole state each time, the last line wins.
 */
export interface LaunchSteering {
  /** The fault overlay's text in force; null: the one given, if any. */
  faults: string | null;
  /** The cassette new launches replay instead of the one on their command line. */
  cassette?: string;
}

/** One line of a run report. */
export interface RunReportLine {
  /** The launch's process id (the library's, on a `steer` line). */
  pid: number;
  event: "start" | "end" | "steer" | "control";
  action: RunAction;
  /** On `start` of a replay with `--control`: a `control` line with its side channel follows. */
  steerable?: boolean;
  /** On `control`: the launch's side channel, once listening. */
  control?: LaunchControlAddress;
  /** On `steer`: what launches starting from now on are to do. */
  steer?: LaunchSteering;
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

  /** Records the start of a launch (`steerable`: one with a control side channel). */
  start(action: RunAction, steerable = false): void {
    this.#started = true;
    this.#write({
      pid: runtime.pid(),
      event: "start",
      action,
      ...(steerable ? { steerable } : {}),
    });
  }

  /** Records where the launch's control side channel listens. */
  control(action: RunAction, control: LaunchControlAddress): void {
    this.#write({ pid: runtime.pid(), event: "control", action, control });
  }

  /** Records what launches starting from now on are to do (the library's control). */
  steer(steer: LaunchSteering): void {
    this.#write({ pid: runtime.pid(), event: "steer", action: "replay", steer });
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
